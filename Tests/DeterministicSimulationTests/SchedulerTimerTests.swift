import DeterministicSimulation
import Testing

@Suite("Scheduler timers")
struct SchedulerTimerTests {
    @Test("a repeating timer fires every interval, first one interval after scheduling")
    func repeats() {
        let harness = SchedulerHarness()
        let s = harness.scheduler
        let timer = s.repeating(every: .seconds(1), on: s.mainQueue, harness.timedJob("tick"))
        #expect(s.run(until: .milliseconds(3_500)) == .reachedTime)
        #expect(harness.log == ["tick@1000000", "tick@2000000", "tick@3000000"])
        #expect(s.pendingJobCount == 1)
        #expect(s.nextEligibleTime == .seconds(4))
        s.cancel(timer)
        #expect(s.pendingJobCount == 0)
        #expect(s.run(until: .seconds(10)) == .idle)
        #expect(harness.log.count == 3)
    }

    @Test("a repeating timer can cancel itself from its own body")
    func selfCancel() {
        let harness = SchedulerHarness()
        let s = harness.scheduler
        var fires = 0
        var timer = JobID(rawValue: 0)
        timer = s.repeating(every: .milliseconds(10), on: s.mainQueue) { [unowned s] in
            fires += 1
            if fires == 3 { s.cancel(timer) }
        }
        #expect(s.runUntilIdle(maxSteps: 1_000) == .idle)
        #expect(fires == 3)
        #expect(s.now == .milliseconds(30))
        #expect(s.pendingJobCount == 0)
    }

    @Test("fires missed while frozen coalesce into one, then the period restarts from it")
    func coalescesWhileFrozen() {
        let harness = SchedulerHarness()
        let s = harness.scheduler
        let app = s.makeQueue(label: "app", kind: .serial)
        s.repeating(every: .seconds(1), on: app, harness.timedJob("tick"))
        s.asyncAfter(.milliseconds(1_500), on: s.mainQueue) { [unowned s] in s.freeze(app) }
        s.asyncAfter(.milliseconds(5_250), on: s.mainQueue) { [unowned s] in s.thaw(app) }
        #expect(s.run(until: .seconds(7)) == .reachedTime)
        #expect(harness.log == ["tick@1000000", "tick@5250000", "tick@6250000"])
    }

    @Test("the next fire is the actual fire time plus the interval when a fire is delayed")
    func delayedFire() {
        let harness = SchedulerHarness()
        let s = harness.scheduler
        s.repeating(every: .seconds(1), on: s.mainQueue, harness.timedJob("tick"))
        // The clock jumps inside a job (as a simulator may do), so the first fire comes late.
        s.asyncAfter(.milliseconds(500), on: s.mainQueue) { [unowned s] in
            s.clock.advance(to: .milliseconds(1_700))
        }
        #expect(s.run(until: .milliseconds(3_000)) == .reachedTime)
        #expect(harness.log == ["tick@1700000", "tick@2700000"])
    }

    @Test("an interval of zero or less is clamped to one microsecond")
    func clampedInterval() {
        let harness = SchedulerHarness()
        let s = harness.scheduler
        s.repeating(every: .zero, on: s.mainQueue, harness.timedJob("z"))
        s.repeating(every: .seconds(-5), on: s.mainQueue, harness.timedJob("n"))
        #expect(s.run(until: VirtualTime(microseconds: 2)) == .reachedTime)
        #expect(harness.log == ["z@1", "n@1", "z@2", "n@2"])
    }

    @Test("a cancelled timer's closure is released once it reaches the front of its queue")
    func releasesClosures() {
        final class Token {}
        weak var weakToken: Token?
        let s = Scheduler(choices: ChoiceSource(seed: Seed(0)))
        do {
            let token = Token()
            weakToken = token
            let id = s.asyncAfter(.seconds(1), on: s.mainQueue) { _ = token }
            s.cancel(id)
        }
        #expect(weakToken != nil)
        _ = s.nextEligibleTime
        #expect(weakToken == nil)
    }
}
