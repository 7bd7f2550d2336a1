import DeterministicSimulation
import Testing

@Suite("Scheduler control")
struct SchedulerControlTests {
    @Test("a frozen queue runs nothing; its jobs wait and run after thaw")
    func freezeAndThaw() {
        let harness = SchedulerHarness()
        let s = harness.scheduler
        let app = s.makeQueue(label: "app", kind: .serial)
        s.freeze(app)
        #expect(s.isFrozen(app))
        s.async(on: app, harness.timedJob("app"))
        s.asyncAfter(.seconds(2), on: s.mainQueue) { [unowned s] in s.thaw(app) }
        #expect(s.nextEligibleTime == .seconds(2))
        #expect(s.pendingJobCount == 2)
        #expect(s.run(until: .seconds(1)) == .reachedTime)
        #expect(harness.log.isEmpty)
        #expect(s.now == .seconds(1))
        #expect(s.run(until: .seconds(5)) == .idle)
        #expect(harness.log == ["app@2000000"])
        #expect(!s.isFrozen(app))
        #expect(s.pendingJobCount == 0)
    }

    @Test("with only frozen jobs left, runs stop as idle and the jobs stay pending")
    func frozenOnly() {
        let harness = SchedulerHarness()
        let s = harness.scheduler
        s.async(on: s.mainQueue, harness.job("main"))
        s.freeze(s.mainQueue)
        #expect(s.nextEligibleTime == nil)
        #expect(!s.step(until: .distantFuture))
        #expect(s.runUntilIdle() == .idle)
        #expect(s.run(until: .seconds(3)) == .idle)
        #expect(s.now == .seconds(3))
        #expect(s.pendingJobCount == 1)
        s.thaw(s.mainQueue)
        #expect(s.runUntilIdle() == .idle)
        #expect(harness.log == ["main"])
        #expect(s.now == .seconds(3))
    }

    @Test("a cancelled job never runs; cancelling twice, late or unknown ids does nothing")
    func cancel() {
        let harness = SchedulerHarness()
        let s = harness.scheduler
        let a = s.async(on: s.mainQueue, harness.job("a"))
        let b = s.asyncAfter(.seconds(1), on: s.mainQueue, harness.job("b"))
        s.async(on: s.mainQueue, harness.job("c"))
        #expect(s.pendingJobCount == 3)
        s.cancel(b)
        s.cancel(b)
        s.cancel(JobID(rawValue: 0))
        s.cancel(JobID(rawValue: 999))
        #expect(s.pendingJobCount == 2)
        #expect(s.runUntilIdle() == .idle)
        s.cancel(a)
        #expect(harness.log == ["a", "c"])
        #expect(s.pendingJobCount == 0)
        #expect(s.now == .zero)
    }

    @Test("a job may cancel itself (a no-op) and cancel, schedule, freeze and thaw others")
    func jobsControlTheScheduler() {
        let harness = SchedulerHarness()
        let s = harness.scheduler
        let other = s.makeQueue(label: "other", kind: .serial)
        var selfID = JobID(rawValue: 0)
        var victim = JobID(rawValue: 0)
        selfID = s.async(on: s.mainQueue) { [unowned s, unowned harness] in
            s.cancel(selfID)
            s.cancel(victim)
            s.freeze(other)
            s.async(on: other, harness.job("frozen-then-thawed"))
            s.asyncAfter(.seconds(1), on: s.mainQueue) { s.thaw(other) }
            harness.log.append("first")
        }
        victim = s.async(on: s.mainQueue, harness.job("victim"))
        #expect(s.runUntilIdle() == .idle)
        #expect(harness.log == ["first", "frozen-then-thawed"])
        #expect(s.pendingJobCount == 0)
    }

    @Test("run(until:) advances the clock to the limit and reports what is left")
    func runUntilAdvancesClock() {
        let harness = SchedulerHarness()
        let s = harness.scheduler
        s.asyncAfter(.seconds(1), on: s.mainQueue, harness.timedJob("one"))
        s.asyncAfter(.seconds(10), on: s.mainQueue, harness.timedJob("ten"))
        #expect(s.run(until: .seconds(5)) == .reachedTime)
        #expect(s.now == .seconds(5))
        #expect(harness.log == ["one@1000000"])
        #expect(s.run(until: .seconds(20)) == .idle)
        #expect(s.now == .seconds(20))
        #expect(s.run(until: .seconds(2)) == .idle)
        #expect(s.now == .seconds(20))
        #expect(s.run(until: .seconds(10)) == .idle && harness.log == ["one@1000000", "ten@10000000"])
    }

    @Test("step(until:) runs one job due by the limit, or returns false leaving the clock alone")
    func stepSemantics() {
        let harness = SchedulerHarness()
        let s = harness.scheduler
        s.asyncAfter(.seconds(3), on: s.mainQueue, harness.timedJob("three"))
        #expect(!s.step(until: .seconds(2)))
        #expect(s.now == .zero)
        #expect(s.step(until: .seconds(3)))
        #expect(s.now == .seconds(3))
        #expect(harness.log == ["three@3000000"])
        #expect(!s.step(until: .distantFuture))
        #expect(s.stepsRun == 1)
    }

    @Test("the step limit stops a run that still has work within the limit")
    func stepLimit() {
        let harness = SchedulerHarness()
        let s = harness.scheduler
        func spin() { s.async(on: s.mainQueue) { spin() } }
        spin()
        #expect(s.run(until: .seconds(1), maxSteps: 100) == .stepLimit)
        #expect(s.stepsRun == 100)
        #expect(s.now == .zero)
        #expect(s.runUntilIdle(maxSteps: 50) == .stepLimit)
        #expect(s.stepsRun == 150)
        let quiet = SchedulerHarness().scheduler
        quiet.async(on: quiet.mainQueue) {}
        #expect(quiet.run(until: .seconds(1), maxSteps: 1) == .idle)
        #expect(quiet.runUntilIdle(maxSteps: 0) == .idle)
    }

    @Test("runUntilIdle ends with nothing pending and the clock at the last job")
    func runUntilIdle() {
        let harness = SchedulerHarness(seed: Seed(12))
        let s = harness.scheduler
        let q = s.makeQueue(label: "q", kind: .concurrent(width: 2))
        for index in 0..<10 {
            s.asyncAfter(.milliseconds(Int64(index * 7 % 5)), on: index % 2 == 0 ? q : s.mainQueue,
                         harness.job("\(index)"))
        }
        #expect(s.runUntilIdle() == .idle)
        #expect(s.pendingJobCount == 0)
        #expect(s.nextEligibleTime == nil)
        #expect(harness.log.count == 10)
        #expect(s.now == .milliseconds(4))
    }

    @Test("onJobStart sees each job before it runs, with queue, time and timer flag")
    func hook() {
        let harness = SchedulerHarness()
        let s = harness.scheduler
        var seen: [String] = []
        s.onJobStart = { info in
            let job = info.job.rawValue
            seen.append("\(job)/\(info.queue.rawValue)/\(info.time)/\(info.isTimer)/\(info.dueTime)")
        }
        let other = s.makeQueue(label: "other", kind: .serial)
        s.async(on: s.mainQueue) {}
        s.asyncAfter(.seconds(1), on: other) {}
        s.freeze(other)
        s.asyncAfter(.seconds(2), on: s.mainQueue) { [unowned s] in s.thaw(other) }
        #expect(s.runUntilIdle() == .idle)
        #expect(seen == ["1/0/0.000000s/false/0.000000s", "3/0/2.000000s/true/2.000000s",
                         "2/1/2.000000s/true/1.000000s"])
    }
}

@Suite("Scheduler misuse")
struct SchedulerMisuseTests {
    @Test("stepping from inside a job stops the process with a clear message")
    func nestedStepTraps() async {
        await #expect(processExitsWith: .failure) {
            let scheduler = Scheduler(choices: ChoiceSource(seed: Seed(0)))
            scheduler.async(on: scheduler.mainQueue) { scheduler.step(until: .distantFuture) }
            _ = scheduler.runUntilIdle()
        }
    }

    @Test("using a queue id the scheduler did not make stops the process")
    func unknownQueueTraps() async {
        await #expect(processExitsWith: .failure) {
            let scheduler = Scheduler(choices: ChoiceSource(seed: Seed(0)))
            scheduler.async(on: QueueID(rawValue: 5)) {}
        }
    }

    @Test("queues thawed in any order are offered in creation order, as if never frozen")
    func thawOrderDoesNotMatter() {
        // The seeded choice picks a position among the candidates, so the candidates' order is
        // part of the trace: thawing queues out of creation order must not reorder them.
        func runOrder(freezing: Bool) -> [String] {
            let harness = SchedulerHarness(seed: Seed(42))
            let s = harness.scheduler
            let queues = (0..<5).map { s.makeQueue(label: "q\($0)", kind: .serial) }
            if freezing {
                for queue in queues { s.freeze(queue) }
                s.freeze(s.mainQueue)
            }
            for (index, queue) in queues.enumerated() {
                for job in 0..<3 { s.async(on: queue, harness.job("q\(index).\(job)")) }
            }
            s.async(on: s.mainQueue, harness.job("main"))
            if freezing {
                for index in [3, 0, 4, 1, 2] { s.thaw(queues[index]) }
                s.freeze(queues[2])
                s.thaw(s.mainQueue)
                s.thaw(queues[2])
            }
            #expect(s.runUntilIdle() == .idle)
            return harness.log
        }
        let plain = runOrder(freezing: false)
        #expect(plain.count == 16)
        #expect(runOrder(freezing: true) == plain)
    }
}
