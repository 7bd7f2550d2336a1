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
        var stop = RunStop.quiescent
        if scheduler.run(until: spec.horizon, maxSteps: spec.maxSteps) == .stepLimit {
            stop = .stepLimit
        } else if let deadlock = scheduler.deadlock {
            device.emit(.deadlock(deadlock.description))
        } else {
            device.emit(.runPhase("settle"))
            driver.settle()
            let remaining = spec.maxSteps - scheduler.stepsRun
            switch scheduler.run(until: spec.horizon + spec.settleLimit, maxSteps: max(0, remaining)) {
            case .stepLimit: stop = .stepLimit
            case .reachedTime: stop = settleStop(device)
            case .idle: stop = .quiescent
            }
            if let deadlock = scheduler.deadlock { device.emit(.deadlock(deadlock.description)) }
        }
        device.emit(.runPhase("end"))
        monitor.finish(at: device.now)
        return RunOutcome(
            digest: recorder.digest, eventCount: recorder.count, violations: monitor.violations,
            trace: recorder.entries, choices: choices.recorded, endTime: device.now, stop: stop,
            steps: scheduler.stepsRun, fallbackCount: choices.fallbackCount, coverage: monitor.coverage.coverage())
    }

    /// Jobs left after the settle limit only count as "did not settle" if the app is still
    /// running and not suspended; a suspended or dead app's frozen work is simply never run.
    private static func settleStop(_ device: SimulatedDevice) -> RunStop {
        guard let app = device.liveApp, app.state != .suspended else { return .quiescent }
        return .settleLimit
    }
}
