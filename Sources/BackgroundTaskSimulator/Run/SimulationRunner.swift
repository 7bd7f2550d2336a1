public import DeterministicSimulation

/// Runs one simulated run: device, environment, workload and checkers, wired together.
///
/// ```swift
/// let outcome = SimulationRunner.run(spec, choices: ChoiceSource(seed: runSeed))
/// if let first = outcome.violations.first { print(first) }
/// ```
///
/// Contract: deterministic: the same spec and the same choices give the same outcome, including
/// the digest, in any process. Violations are also recorded in the trace, as `violation` events.
public enum SimulationRunner {
    public static func run(_ spec: RunSpec, choices: ChoiceSource, keepTrace: Bool = false) -> RunOutcome {
        run(spec, choices: choices, keepTrace: keepTrace, filtersCheckerEvents: true)
    }

    /// ``run(_:choices:keepTrace:)``, optionally calling every checker for every event (the
    /// tests check that filtering by ``EventFilteringChecker`` changes nothing).
    static func run(_ spec: RunSpec, choices: ChoiceSource, keepTrace: Bool, filtersCheckerEvents: Bool) -> RunOutcome {
        let device = SimulatedDevice(profile: spec.profile, environment: spec.environment,
                                     workload: spec.workload, choices: choices)
        defer { device.tearDown() }
        let recorder = TraceRecorder<SimEvent>(keepsEntries: keepTrace)
        let checkers = spec.invariants.filter { $0.applies(spec.workload) }.map { ($0.id, $0.makeChecker(spec)) }
        let monitor = RunMonitor(recorder: recorder, checkers: checkers, filtersEvents: filtersCheckerEvents)
        device.monitor = monitor

        if let concurrency = device.concurrency { device.emit(.threads(concurrency.traceDescription)) }
        let driver = EnvironmentDriver(device: device, horizon: spec.horizon)
        driver.start()
        let scheduler = device.scheduler
        let stop = device.hasThreads
            ? runInOneCall(spec, device: device, driver: driver)
            : runInTwoCalls(spec, device: device, driver: driver)
        if let deadlock = scheduler.deadlock { device.emit(.deadlock(deadlock.description)) }
        device.emit(.runPhase("end"))
        monitor.finish(at: device.now)
        return RunOutcome(
            digest: recorder.digest, eventCount: recorder.count, violations: monitor.violations,
            trace: recorder.entries, choices: choices.recorded, endTime: device.now, stop: stop,
            steps: scheduler.stepsRun, fallbackCount: choices.fallbackCount, coverage: monitor.coverage.coverage())
    }

    /// One thread: runs to the horizon, settles (no more actions, the app sent home), then runs
    /// for at most the settle limit.
    private static func runInTwoCalls(_ spec: RunSpec, device: SimulatedDevice, driver: EnvironmentDriver) -> RunStop {
        let scheduler = device.scheduler
        if scheduler.run(until: spec.horizon, maxSteps: spec.maxSteps) == .stepLimit { return .stepLimit }
        if scheduler.deadlock != nil { return .quiescent }
        device.emit(.runPhase("settle"))
        driver.settle()
        return finalStop(spec, device: device, maxSteps: spec.maxSteps - scheduler.stepsRun)
    }

    /// Simulated threads: the same phases in one `run` call, the settle step a system job at the
    /// horizon. Each `run` call hands the loop to a pool thread and back (two baton handoffs);
    /// one call per run instead of two saves a handoff pair, a tenth of a short run's time.
    private static func runInOneCall(_ spec: RunSpec, device: SimulatedDevice, driver: EnvironmentDriver) -> RunStop {
        device.scheduler.async(at: spec.horizon, on: device.systemQueue) {
            device.emit(.runPhase("settle"))
            driver.settle()
        }
        return finalStop(spec, device: device, maxSteps: spec.maxSteps)
    }

    /// Runs until the settle limit and says why the run stopped.
    private static func finalStop(_ spec: RunSpec, device: SimulatedDevice, maxSteps: Int) -> RunStop {
        switch device.scheduler.run(until: spec.horizon + spec.settleLimit, maxSteps: max(0, maxSteps)) {
        case .stepLimit: .stepLimit
        case .reachedTime: settleStop(device)
        case .idle: .quiescent
        }
    }

    /// Jobs left after the settle limit only count as "did not settle" if the app is still
    /// running and not suspended; a suspended or dead app's frozen work is simply never run.
    private static func settleStop(_ device: SimulatedDevice) -> RunStop {
        guard let app = device.liveApp, app.state != .suspended else { return .quiescent }
        return .settleLimit
    }
}
