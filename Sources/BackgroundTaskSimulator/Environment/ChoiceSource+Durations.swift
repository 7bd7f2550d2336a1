import DeterministicSimulation

extension ChoiceSource {
    /// A duration in `range`, log-uniform by decade: a decade is drawn first, then a value within
    /// it, so a campaign sees 20 ms races as often as minute-long waits. Shrinking (lower choices)
    /// moves toward the shortest decade and its lower end.
    ///
    /// Contract: always within `range`; an empty or reversed range gives its lower bound
    /// without drawing.
    func duration(in range: ClosedRange<VirtualDuration>) -> VirtualDuration {
        let low = range.lowerBound.microseconds
        let high = range.upperBound.microseconds
        guard low < high else { return range.lowerBound }
        var buckets = 1
        var edge = low
        while true {
            edge = Self.nextEdge(after: edge, high: high)
            if edge >= high { break }
            buckets += 1
        }
        let bucket = buckets == 1 ? 0 : int(in: 0...(buckets - 1))
        var start = low
        for _ in 0..<bucket { start = Self.nextEdge(after: start, high: high) }
        let end = Self.nextEdge(after: start, high: high)
        let offset = draw(below: UInt64(end - start) + 1)
        return VirtualDuration(microseconds: start + Int64(offset))
    }

    /// The mean of ``duration(in:)`` over `range`, in microseconds: each decade's midpoint,
    /// weighted equally (a swarm run scales its horizon by the ratio of two such means).
    static func meanDurationMicroseconds(in range: ClosedRange<VirtualDuration>) -> Double {
        let low = range.lowerBound.microseconds
        let high = range.upperBound.microseconds
        guard low < high else { return Double(low) }
        var midpoints: [Double] = []
        var start = low
        while start < high {
            let end = nextEdge(after: start, high: high)
            midpoints.append((Double(start) + Double(end)) / 2)
            start = end
        }
        return midpoints.reduce(0, +) / Double(midpoints.count)
    }

    private static func nextEdge(after edge: Int64, high: Int64) -> Int64 {
        let tenfold = edge > Int64.max / 10 ? Int64.max : edge * 10
        return min(high, max(tenfold, edge + 1_000))
    }
}
