public import DeterministicSimulation
import Foundation

/// Runs one simulated run: device, environment, workload and checkers, wired together.
///
/// ```swift
/// let outcome = SimulationRunner.run(spec, choices: ChoiceSource(seed: runSeed))
/// if let first = outcome.violations.first { print(first) }
/// ```
///
/// Contract: deterministic: the same spec and the same choices give the same outcome, including
/// the digest, in any process and on any thread (a call from the main thread runs the run on
/// another: ``DeterministicSimulation/OffMainThread``). Violations are also recorded in the
/// trace, as `violation` events.
public enum SimulationRunner {
    public static func run(_ spec: RunSpec, choices: ChoiceSource, keepTrace: Bool = false) -> RunOutcome {
        run(spec, choices: choices, keepTrace: keepTrace, filtersCheckerEvents: true)
    }

    /// ``run(_:choices:keepTrace:)``, optionally calling every checker for every event (the
    /// tests check that filtering by ``EventFilteringChecker`` changes nothing).
    static func run(_ given: RunSpec, choices: ChoiceSource, keepTrace: Bool, filtersCheckerEvents: Bool) -> RunOutcome {
        OffMainThread.run { runHere(given, choices: choices, keepTrace: keepTrace, filtersCheckerEvents: filtersCheckerEvents) }
    }

    private static func runHere(_ given: RunSpec, choices: ChoiceSource, keepTrace: Bool, filtersCheckerEvents: Bool)
        -> RunOutcome {
        // The exploration strategy's draws come first (none for `random`).
        let spec = given.exploration.spec(for: given, choices: choices)
        let device = SimulatedDevice(profile: spec.profile, environment: spec.environment,
                                     workload: spec.workload, choices: choices)
        defer { device.tearDown() }
        let recorder = TraceRecorder<SimEvent>(keepsEntries: keepTrace, hashesEvents: spec.hashesTrace)
        if keepTrace, device.hasThreads {
            recorder.threadLabel = { [unowned scheduler = device.scheduler] in scheduler.currentThreadLabel }
        }
        // Labelled as RunMonitor takes them: an unlabelled tuple array is cast element by element.
        let checkers = checked(spec.invariants, on: spec.workload).map { (id: $0.id, checker: $0.makeChecker(spec)) }
        let monitor = RunMonitor(recorder: recorder, checkers: checkers, filtersEvents: filtersCheckerEvents,
                                 countsCoverage: spec.countsCoverage)
        device.monitor = monitor
        if checkers.contains(where: { $0.id == "no-data-race" }) {
            // Happens-before from here on (the device's set-up did nothing a job could race with);
            // each shared access is an event, and a race one more at its second access. They
            // change no draw and no other event.
            let scheduler = device.scheduler
            scheduler.enableRaceDetection()
            scheduler.onSharedAccess = { [unowned device] kind, name in
                device.emit(.sharedAccess(state: name, write: kind == .write))
            }
            scheduler.onDataRace = { [unowned device] race in device.emit(.dataRace(race.description)) }
        }

        if let concurrency = device.concurrency { device.emit(.threads(concurrency.traceDescription)) }
        let driver = EnvironmentDriver(device: device, horizon: spec.horizon)
        device.scheduler.busyLoopLimit = spec.busyLoopLimit
        driver.start()
        let scheduler = device.scheduler
        // The verdict is taken the moment the run stops, before any suspended job is unwound
        // (``Scheduler/runLast(until:maxSteps:atStop:)``).
        var outcome: RunOutcome?
        let judge = { (stop: RunStop) in
            if let deadlock = scheduler.deadlock { device.emit(.deadlock(deadlock.description)) }
            if let loop = scheduler.busyLoop { device.emit(.busyLoop(loop.description)) }
            device.emit(.runPhase("end"))
            monitor.finish(at: device.now, cutShort: scheduler.busyLoop != nil)
            outcome = RunOutcome(
                digest: recorder.digest, eventCount: recorder.count, violations: monitor.violations,
                trace: recorder.entries, choices: choices.recorded, endTime: device.now, stop: stop,
                steps: scheduler.stepsRun, fallbackCount: choices.fallbackCount,
                coverage: monitor.coverage?.coverage() ?? Coverage())
        }
        if device.hasThreads {
            runInOneCall(spec, device: device, driver: driver, judge: judge)
        } else {
            runInTwoCalls(spec, device: device, driver: driver, judge: judge)
        }
        guard let outcome else { preconditionFailure("a run ended without a verdict") }
        return outcome
    }

    /// The invariants checked on `workload`'s runs: those of `invariants` that apply to it,
    /// except that the environment variable `BGSIM_RACE_DETECTION` set to `on` or `off` adds
    /// `no-data-race` (and so the race detector) to every workload's runs or takes it from them,
    /// to measure what detection costs:
    ///
    /// ```
    /// BGSIM_RACE_DETECTION=on valgrind --tool=callgrind /tmp/bgsim fuzz Scenarios/token-correct-ios17.json --runs 100 --jobs 1 --no-failure-db
    /// ```
    ///
    /// Contract: read once per process; any other value (or none) changes nothing. Detection
    /// changes no draw, so a run's digest is the same either way unless a race is found.
    private static func checked(_ invariants: [Invariant], on workload: WorkloadInfo) -> [Invariant] {
        // Room for every invariant and the forced one up front: every run builds this list, and
        // growing it by appends copied the invariants three or four times (13,000 instructions a run).
        var checked: [Invariant] = []
        checked.reserveCapacity(invariants.count + 1)
        for invariant in invariants where invariant.applies(workload) { checked.append(invariant) }
        let race = "no-data-race"
        switch forcedRaceDetection {
        case true?:
            if !checked.contains(where: { $0.id == race }), let invariant = Invariant.named(race) {
                checked.append(invariant)
            }
        case false?: checked.removeAll { $0.id == race }
        case nil: break
        }
        return checked
    }

    /// `BGSIM_RACE_DETECTION`: `on` true, `off` false, else nil (see ``checked(_:on:)``).
    private static let forcedRaceDetection: Bool? = {
        switch getenv("BGSIM_RACE_DETECTION").map({ String(cString: $0) }) {
        case "on": true
        case "off": false
        default: nil
        }
    }()

    /// One thread: runs to the horizon, settles (no more actions, the app sent home), then runs
    /// for at most the settle limit.
    private static func runInTwoCalls(
        _ spec: RunSpec, device: SimulatedDevice, driver: EnvironmentDriver, judge: @escaping (RunStop) -> Void
    ) {
        let scheduler = device.scheduler
        if scheduler.run(until: spec.horizon, maxSteps: spec.maxSteps) == .stepLimit { return judge(.stepLimit) }
        if scheduler.deadlock != nil { return judge(.quiescent) }
        device.emit(.runPhase("settle"))
        driver.settle()
        finalRun(spec, device: device, maxSteps: spec.maxSteps - scheduler.stepsRun, judge: judge)
    }

    /// Simulated threads: the same phases in one call, the settle step a system job at the
    /// horizon, and that call ``Scheduler/runLast(until:maxSteps:atStop:)``: the driver runs the
    /// loop itself, so a run whose jobs are never suspended hands the baton between OS threads
    /// not even once.
    private static func runInOneCall(
        _ spec: RunSpec, device: SimulatedDevice, driver: EnvironmentDriver, judge: @escaping (RunStop) -> Void
    ) {
        device.scheduler.async(at: spec.horizon, on: device.systemQueue) {
            device.emit(.runPhase("settle"))
            driver.settle()
        }
        finalRun(spec, device: device, maxSteps: spec.maxSteps, judge: judge)
    }

    /// Runs until the settle limit and judges the run with why it stopped.
    private static func finalRun(
        _ spec: RunSpec, device: SimulatedDevice, maxSteps: Int, judge: @escaping (RunStop) -> Void
    ) {
        device.scheduler.runLast(until: spec.horizon + spec.settleLimit, maxSteps: max(0, maxSteps)) { stop in
            switch stop {
            case .stepLimit: judge(.stepLimit)
            case .reachedTime: judge(settleStop(device))
            case .idle: judge(.quiescent)
            }
        }
    }

    /// Jobs left after the settle limit only count as "did not settle" if the app is still
    /// running and not suspended; a suspended or dead app's frozen work is simply never run.
    private static func settleStop(_ device: SimulatedDevice) -> RunStop {
        guard let app = device.liveApp, app.state != .suspended else { return .quiescent }
        return .settleLimit
    }
}
