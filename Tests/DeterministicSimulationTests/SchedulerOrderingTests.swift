import DeterministicSimulation
import Testing

@Suite("Scheduler ordering")
struct SchedulerOrderingTests {
    @Test("a serial queue runs its jobs first in, first out, and draws nothing")
    func serialFIFO() {
        let harness = SchedulerHarness(seed: Seed(1))
        let s = harness.scheduler
        for index in 0..<20 { s.async(on: s.mainQueue, harness.job("\(index)")) }
        #expect(s.runUntilIdle() == .idle)
        #expect(harness.log == (0..<20).map { "\($0)" })
        #expect(harness.choices.drawCount == 0)
    }

    @Test("asyncAfter jobs run by due time, ties in scheduling order, FIFO with async jobs")
    func asyncAfterOrdering() {
        let harness = SchedulerHarness()
        let s = harness.scheduler
        let q = s.mainQueue
        s.asyncAfter(.milliseconds(20), on: q, harness.timedJob("late"))
        s.asyncAfter(.milliseconds(10), on: q, harness.timedJob("tie1"))
        s.async(on: q, harness.timedJob("now"))
        s.asyncAfter(.milliseconds(10), on: q, harness.timedJob("tie2"))
        s.asyncAfter(.zero, on: q, harness.timedJob("zeroDelay"))
        s.asyncAfter(.milliseconds(-5), on: q, harness.timedJob("negativeDelay"))
        s.async(at: .seconds(-1), on: q, harness.timedJob("pastTime"))
        s.async(at: .milliseconds(10), on: q, harness.timedJob("tie3"))
        #expect(s.runUntilIdle() == .idle)
        #expect(harness.log == ["now@0", "zeroDelay@0", "negativeDelay@0", "pastTime@0",
                                "tie1@10000", "tie2@10000", "tie3@10000", "late@20000"])
        #expect(s.now == .milliseconds(20))
    }

    @Test("candidates are listed by queue creation order and the draw picks among them")
    func candidateOrderAndDraw() {
        // Three serial queues with one job each: draws 2, then 1, then (one candidate) nothing.
        let harness = SchedulerHarness(choices: [2, 1])
        let s = harness.scheduler
        let a = s.makeQueue(label: "a", kind: .serial)
        let b = s.makeQueue(label: "b", kind: .serial)
        s.async(on: b, harness.job("b"))
        s.async(on: a, harness.job("a"))
        s.async(on: s.mainQueue, harness.job("main"))
        #expect(s.runUntilIdle() == .idle)
        #expect(harness.log == ["b", "a", "main"])
        #expect(harness.choices.recorded.values == [2, 1])
        #expect(harness.choices.fallbackCount == 0)
    }

    @Test("choices are drawn only when more than one job is a candidate")
    func drawsOnlyWithChoice() {
        let harness = SchedulerHarness(seed: Seed(9))
        let s = harness.scheduler
        let other = s.makeQueue(label: "other", kind: .serial)
        s.async(on: s.mainQueue, harness.job("m1"))
        s.async(on: s.mainQueue, harness.job("m2"))
        s.asyncAfter(.seconds(1), on: other, harness.job("o1"))
        s.asyncAfter(.seconds(2), on: other, harness.job("o2"))
        #expect(s.runUntilIdle() == .idle)
        #expect(harness.log == ["m1", "m2", "o1", "o2"])
        #expect(harness.choices.drawCount == 0)
        s.async(on: s.mainQueue, harness.job("m3"))
        s.async(on: other, harness.job("o3"))
        #expect(s.step(until: .distantFuture))
        #expect(harness.choices.drawCount == 1)
        #expect(s.step(until: .distantFuture))
        #expect(harness.choices.drawCount == 1)
    }

    @Test("a concurrent queue offers its first `width` ready jobs, in (time, id) order")
    func concurrentWidth() {
        // Width 3, five jobs: candidates are jobs 0, 1, 2; choosing 2 runs "2".
        let harness = SchedulerHarness(choices: [2, 2, 2, 1])
        let s = harness.scheduler
        let workers = s.makeQueue(label: "workers", kind: .concurrent(width: 3))
        for index in 0..<5 { s.async(on: workers, harness.job("\(index)")) }
        #expect(s.step(until: .zero))
        #expect(harness.log == ["2"])
        // Now 0, 1, 3 are offered; 4 is not (beyond the width): choosing 2 runs "3".
        #expect(s.step(until: .zero))
        #expect(harness.log == ["2", "3"])
        // 0, 1, 4: choosing 2 runs "4"; then 0, 1: choosing 1 runs "1"; then "0" alone.
        #expect(s.runUntilIdle() == .idle)
        #expect(harness.log == ["2", "3", "4", "1", "0"])
        #expect(harness.choices.recorded.values == [2, 2, 2, 1])
    }

    @Test("a concurrent queue skips cancelled jobs when offering candidates")
    func concurrentSkipsCancelled() {
        let harness = SchedulerHarness(choices: [1, 1])
        let s = harness.scheduler
        let workers = s.makeQueue(label: "workers", kind: .concurrent(width: 2))
        var ids: [JobID] = []
        for index in 0..<6 { ids.append(s.async(on: workers, harness.job("\(index)"))) }
        s.cancel(ids[1])
        s.cancel(ids[2])
        // Offered: 0 and 3; choice 1 runs "3". Then 0 and 4; choice 1 runs "4"; then 0, 5 → 0 (exhausted).
        #expect(s.runUntilIdle() == .idle)
        #expect(harness.log == ["3", "4", "0", "5"])
    }

    @Test("a concurrent queue's width counts only ready jobs; later jobs wait for their time")
    func concurrentReadyOnly() {
        let harness = SchedulerHarness(seed: Seed(4))
        let s = harness.scheduler
        let workers = s.makeQueue(label: "workers", kind: .concurrent(width: 8))
        s.asyncAfter(.seconds(1), on: workers, harness.timedJob("later"))
        s.async(on: workers, harness.timedJob("now"))
        #expect(s.step(until: .distantFuture))
        #expect(harness.log == ["now@0"])
        #expect(harness.choices.drawCount == 0)
    }

    @Test("a random interleaving runs every job exactly once, FIFO within each serial queue")
    func randomInterleavingKeepsSerialOrder() {
        for seed in 0..<30 as Range<UInt64> {
            let harness = SchedulerHarness(seed: Seed(seed))
            let s = harness.scheduler
            let queues = [s.mainQueue, s.makeQueue(label: "a", kind: .serial),
                          s.makeQueue(label: "b", kind: .serial)]
            for index in 0..<30 {
                let queue = queues[index % 3]
                s.async(on: queue, harness.job("\(queue.rawValue):\(index)"))
            }
            #expect(s.runUntilIdle() == .idle)
            #expect(harness.log.count == 30)
            for queue in queues {
                let mine = harness.log.filter { $0.hasPrefix("\(queue.rawValue):") }
                let expected = stride(from: queue.rawValue, to: 30, by: 3).map { "\(queue.rawValue):\($0)" }
                #expect(mine == expected, "seed \(seed)")
            }
        }
    }

    @Test("ids follow creation order; labels and kinds are kept")
    func identities() {
        let s = Scheduler(choices: ChoiceSource(seed: Seed(0)))
        #expect(s.mainQueue == QueueID(rawValue: 0))
        #expect(s.label(of: s.mainQueue) == "main")
        let workers = s.makeQueue(label: "workers", kind: .concurrent(width: 3))
        #expect(workers.rawValue == 1)
        #expect(s.label(of: workers) == "workers")
        #expect(s.kind(of: workers) == .concurrent(width: 3))
        #expect(s.queueCount == 2)
        let first = s.async(on: workers) {}
        let second = s.asyncAfter(.seconds(1), on: s.mainQueue) {}
        #expect(first == JobID(rawValue: 1))
        #expect(second == JobID(rawValue: 2))
        #expect(first < second)
        #expect(QueueKind.concurrent(width: 0).width == 1)
    }
}
