@testable import DeterministicSimulation
import Testing

@Suite("Queue bit sets")
struct QueueBitsTests {
    @Test("members in index order across the inline word and further words")
    func membersAcrossWords() {
        var bits = QueueBits()
        for queue in [130, 0, 63, 64, 200, 5] { bits.insert(queue) }
        #expect(bits.members == [0, 5, 63, 64, 130, 200])
        #expect(bits.contains(64) && bits.contains(200) && !bits.contains(65) && !bits.contains(1_000))
        bits.remove(64)
        bits.remove(0)
        bits.remove(999)  // past the last word: nothing to do
        #expect(bits.members == [5, 63, 130, 200])
        #expect(QueueBits(members: 7).members == [7])
    }

    @Test("a cursor visits the intersection in index order, also where one set has fewer words")
    func cursorIntersection() {
        var first = QueueBits()
        var second = QueueBits()
        for queue in [1, 2, 70, 140, 300] { first.insert(queue) }
        for queue in [2, 3, 70, 140] { second.insert(queue) }
        var cursor = QueueBits.Cursor(first, second)
        var visited: [Int] = []
        while let queue = cursor.next(first, second) { visited.append(queue) }
        #expect(visited == [2, 70, 140])
        var none = QueueBits.Cursor(first, QueueBits())
        #expect(none.next(first, QueueBits()) == nil)
    }

    @Test("a scheduler with 150 queues lists candidates by creation order, past the first 64")
    func manyQueues() {
        func run(_ choices: [UInt64], frozen: Int? = nil) -> (log: [String], harness: SchedulerHarness) {
            let harness = SchedulerHarness(choices: choices)
            let s = harness.scheduler
            let queues = (1...150).map { s.makeQueue(label: "q\($0)", kind: .serial) }
            for index in [140, 3, 149, 70] { s.async(on: queues[index], harness.job("q\(index)")) }
            if let frozen { s.freeze(queues[frozen]) }
            _ = s.runUntilIdle()
            if let frozen {
                s.thaw(queues[frozen])
                _ = s.runUntilIdle()
            }
            return (harness.log, harness)
        }
        #expect(run([0, 0, 0]).log == ["q3", "q70", "q140", "q149"])
        #expect(run([3, 2, 1]).log == ["q149", "q140", "q70", "q3"])
        // A frozen queue past the first word offers nothing until it thaws.
        #expect(run([2, 1], frozen: 70).log == ["q149", "q140", "q3", "q70"])
    }
}
