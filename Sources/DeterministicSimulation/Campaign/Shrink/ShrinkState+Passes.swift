extension ShrinkState {
    /// Deletes chunks of 8, 4, 2 and 1 values, from the back (later choices usually matter less).
    mutating func deleteChunks() {
        for size in ShrinkPass.chunkSizes {
            var start = current.count - size
            while start >= 0, stop == nil {
                var values = current.values
                values.removeSubrange(start..<start + size)
                attempt(values)
                start = min(start - 1, current.count - size)
            }
        }
    }

    /// Sets chunks of 8, 4, 2 and 1 nonzero-containing values to 0.
    mutating func zeroChunks() {
        for size in ShrinkPass.chunkSizes {
            var start = 0
            while start + size <= current.count, stop == nil {
                let chunk = current.values[start..<start + size]
                if chunk.contains(where: { $0 != 0 }) {
                    var values = current.values
                    values.replaceSubrange(start..<start + size, with: repeatElement(0, count: size))
                    attempt(values)
                }
                start += size
            }
        }
    }

    /// Lowers each value: tries 0, then binary-searches the smallest value that still fails (up to
    /// 16 replays); a value above ``ShrinkPass/binarySearchLimit`` (a duration in nanoseconds, a
    /// scheduling point) is instead halved while halving works, a few replays instead of 40.
    mutating func minimizeValues() {
        var index = 0
        while index < current.count, stop == nil {
            minimizeValue(at: index)
            index += 1
        }
    }

    private mutating func minimizeValue(at index: Int) {
        let original = current.values[index]
        guard original > 0 else { return }
        if attempt(replacing(index, with: 0)) { return }
        if original > ShrinkPass.binarySearchLimit {
            var value = original
            while value > 1, stop == nil, attempt(replacing(index, with: value / 2)) {
                // The sequence may have changed shape; go on only while it has not.
                guard index < current.count, current.values[index] == value / 2 else { return }
                value /= 2
            }
            return
        }
        // Invariant: `low` fails (or was skipped), `high` is the current value, which fails.
        var low: UInt64 = 0
        var high = original
        while high - low > 1, stop == nil {
            let middle = low + (high - low) / 2
            if attempt(replacing(index, with: middle)) {
                // The sequence may have changed shape; keep searching only while it has not.
                guard index < current.count, current.values[index] == middle else { return }
                high = middle
            } else {
                low = middle
            }
        }
    }

    /// Swaps out-of-order neighbours, then tries lowering both of a pair by the smaller value.
    mutating func sortAdjacent() {
        var index = 0
        while index + 1 < current.count, stop == nil {
            let (a, b) = (current.values[index], current.values[index + 1])
            if a > b {
                var values = current.values
                values.swapAt(index, index + 1)
                attempt(values)
            }
            // An adopted swap may have shortened the sequence (its run read fewer draws): the pair
            // is read only while both values are still there.
            if index + 1 < current.count {
                let (c, d) = (current.values[index], current.values[index + 1])
                if c > 0, d > 0 {
                    var values = current.values
                    let step = min(c, d)
                    values[index] = c - step
                    values[index + 1] = d - step
                    attempt(values)
                }
            }
            index += 1
        }
    }

    private func replacing(_ index: Int, with value: UInt64) -> [UInt64] {
        var values = current.values
        values[index] = value
        return values
    }
}
