import DeterministicSimulation
import Testing

/// One step of the counter race's trace: which simulated thread did what.
struct CounterStep: TraceEventRepresentable {
    let thread: String
    let action: String

    func hash(into hasher: inout StableHasher) {
        hasher.combine(thread)
        hasher.combine(action)
    }

    var name: String { "step" }

    var fields: [TraceField] {
        [TraceField("thread", .string(thread)), TraceField("action", .string(action))]
    }
}

/// The toy target of the controlled-concurrency tests: two workers on a concurrent queue of
/// width 2 each add 1 to a shared counter three times, by reading it, reaching a scheduling
/// point (a "host call") and writing it back. The racy variant loses an update when a worker
/// is preempted between its read and its write; the locked variant holds a ``SimulatedLock``
/// around the update and never does; the deferred variant runs the update in
/// ``Scheduler/withPreemptionDeferred(_:)`` (as a host does while a library holds a real lock)
/// and never does either. A main-queue timer and an I/O job add threads to choose from.
final class CounterRace {
    enum Variant { case racy, locked, deferred }

    struct Outcome {
        let digest: TraceDigest
        let recorded: ChoiceSequence
        let counter: Int
        let events: Int
        let preemptions: Int
        let stop: SchedulerStop
        var lostUpdate: Bool { counter != 6 }

        /// Expects `other` to be the same run: trace, choices, counter, preemptions and stop.
        func expectSameRun(as other: Outcome, _ label: String) {
            #expect(digest == other.digest, "\(label)")
            #expect(recorded == other.recorded, "\(label)")
            #expect(counter == other.counter, "\(label)")
            #expect(preemptions == other.preemptions, "\(label)")
            #expect(stop == other.stop, "\(label)")
        }
    }

    let scheduler: Scheduler
    let trace = TraceRecorder<CounterStep>(keepsEntries: false)
    var counter = 0

    init(choices: ChoiceSource, configuration: ConcurrencyConfiguration?, pool: SimulatedThreadPool) {
        scheduler = Scheduler(choices: choices)
        if let configuration { scheduler.enableControlledConcurrency(configuration, pool: pool) }
    }

    /// Runs the race once; `lastRun` uses ``Scheduler/runLast(until:maxSteps:atStop:)`` (the
    /// driver runs the loop) instead of ``Scheduler/run(until:maxSteps:)``.
    static func run(
        choices: ChoiceSource, configuration: ConcurrencyConfiguration?, variant: Variant = .racy,
        pool: SimulatedThreadPool, lastRun: Bool = false
    ) -> Outcome {
        let race = CounterRace(choices: choices, configuration: configuration, pool: pool)
        race.start(variant: variant)
        var preemptions = 0
        let stop: SchedulerStop
        if lastRun {
            stop = race.scheduler.runLast(until: .seconds(1), maxSteps: 10_000) { _ in
                preemptions = race.scheduler.preemptionCount
            }
        } else {
            stop = race.scheduler.run(until: .seconds(1), maxSteps: 10_000)
            preemptions = race.scheduler.preemptionCount
        }
        race.scheduler.discardPendingJobs()
        return Outcome(
            digest: race.trace.digest, recorded: choices.recorded, counter: race.counter,
            events: race.trace.count, preemptions: preemptions, stop: stop)
    }

    func record(_ action: String) {
        trace.record(CounterStep(thread: scheduler.currentThreadLabel ?? "-", action: action), at: scheduler.now)
    }

    func start(variant: Variant) {
        let s = scheduler
        let workers = s.makeQueue(label: "workers", kind: .concurrent(width: 2))
        let io = s.makeQueue(label: "io", kind: .serial)
        let lock = s.hasControlledConcurrency ? s.makeLock(name: "counter") : nil
        for worker in 0..<2 {
            s.async(on: workers) { [unowned self] in
                for round in 0..<3 {
                    if variant == .locked { lock?.lock() }
                    func update() {
                        s.schedulingPoint()
                        let value = counter
                        record("w\(worker).\(round) read \(value)")
                        s.schedulingPoint()
                        counter = value + 1
                        record("w\(worker).\(round) wrote \(value + 1)")
                        s.schedulingPoint()
                    }
                    if variant == .deferred {
                        s.withPreemptionDeferred(update)
                        s.schedulingPoint()  // outside: a postponed preemption is taken here
                    } else {
                        update()
                    }
                    if variant == .locked { lock?.unlock() }
                }
            }
        }
        s.async(on: io) { [unowned self] in
            s.schedulingPoint()
            record("io")
            s.schedulingPoint()
        }
        s.asyncAfter(.microseconds(10), on: s.mainQueue) { [unowned self] in
            record("tick")
            s.schedulingPoint()
        }
    }
}

/// The counter race as a campaign target: a lost update is a `no-lost-update` failure. Each
/// campaign worker uses its own OS thread's pool.
struct CounterRaceTarget: CampaignTarget {
    let configuration: ConcurrencyConfiguration?
    var variant = CounterRace.Variant.racy

    func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
        let outcome = CounterRace.run(
            choices: choices, configuration: configuration, variant: variant, pool: .forCurrentThread)
        let failures =
            outcome.lostUpdate
            ? [Violation(invariant: "no-lost-update", message: "counter is \(outcome.counter), not 6", time: .zero)]
            : []
        return RunVerdict(digest: outcome.digest, eventCount: outcome.events, simulatedTime: .zero, failures: failures)
    }
}
