@testable import DeterministicSimulation
import Testing

/// The job heap against a sorted list: the same first entry and the same removals, through
/// stretches of in-order insertions (its first-in, first-out fast path), out-of-order ones (its
/// heap mode), removals of the first entry and removals at any position.
@Suite("Job heap")
struct JobHeapTests {
    @Test("the heap agrees with a sorted list through in-order and out-of-order insertions and removals",
          arguments: 0..<40)
    func agreesWithASortedList(seed: Int) {
        var random = SplitMix64(seed: 0x7ea9_0000 + UInt64(seed))
        var heap = JobHeap()
        var reference: [ScheduledJob] = []
        var number: UInt64 = 0
        var time: Int64 = 0
        for _ in 0..<600 {
            switch random.next() % 10 {
            case 0...4:  // an `async`: due now or later than everything so far, the next number
                number += 1
                time += Int64(random.next() % 3)
                let job = ScheduledJob(time: time, number: number, slot: 0)
                heap.insert(job)
                reference.append(job)
            case 5:  // an `asyncAfter` due earlier than the last job: out of order
                number += 1
                let job = ScheduledJob(time: max(0, time - Int64(random.next() % 5)), number: number, slot: 0)
                heap.insert(job)
                reference.append(job)
            case 6...8:
                guard !reference.isEmpty else { continue }
                #expect(heap.removeFirst().number == reference.removeFirst().number)
            default:  // a concurrent queue's job taken from the middle, found by a walk
                guard !heap.isEmpty else { continue }
                let position = Int(random.next() % UInt64(heap.count))
                let expected = heap[position]
                let removed = heap.remove(at: position)
                #expect(removed.number == expected.number, "remove(at: \(position)) removed another entry")
                let index = reference.firstIndex { $0.number == removed.number }
                #expect(index != nil, "removed a job that was not in the heap")
                if let index { reference.remove(at: index) }
            }
            reference.sort { $0.precedes($1) }
            #expect(heap.count == reference.count)
            #expect(heap.first?.number == reference.first?.number)
            #expect(heap.isValid())
        }
        let rest = heap.removeAll().sorted { $0.precedes($1) }
        #expect(rest.map(\.number) == reference.map(\.number))
        #expect(heap.isEmpty)
    }

    @Test("logical positions start at the first live entry after removals from the front")
    func positionsAreLogical() {
        var heap = JobHeap()
        for number in 1...100 as ClosedRange<UInt64> { heap.insert(ScheduledJob(time: 0, number: number, slot: 0)) }
        for expected in 1...40 as ClosedRange<UInt64> { #expect(heap.removeFirst().number == expected) }
        #expect(heap.count == 60)
        #expect(heap[0].number == 41)
        #expect(heap[59].number == 100)
        // Out of order now: the heap leaves its sorted mode and keeps the same entries.
        heap.insert(ScheduledJob(time: -1, number: 101, slot: 0))
        #expect(heap.first?.number == 101)
        #expect(heap.count == 61)
        #expect(heap.isValid())
    }

    @Test("a queue that empties at every job keeps its dead entries bounded and returns only live ones")
    func emptiesAtEveryJob() {
        var heap = JobHeap()
        var number: UInt64 = 0
        for round in 0..<500 {
            number += 1
            heap.insert(ScheduledJob(time: Int64(round), number: number, slot: 0))
            if round.isMultiple(of: 7) {
                number += 1
                heap.insert(ScheduledJob(time: Int64(round), number: number, slot: 0))
                #expect(heap.removeFirst().number == number - 1)
            }
            if round.isMultiple(of: 50) {
                // Emptied all at once (a process's queue dropped): only the live job comes back.
                #expect(heap.removeAll().map(\.number) == [number])
            } else {
                #expect(heap.removeFirst().number == number)
            }
            #expect(heap.isEmpty && heap.count == 0 && heap.first == nil)
            #expect(heap.isValid(), "round \(round): dead entries must stay bounded")
        }
    }
}
