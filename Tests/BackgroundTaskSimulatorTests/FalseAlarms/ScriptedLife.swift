@testable import BackgroundTaskSimulator
import DeterministicSimulation

/// A short, scripted life of a real workload (launch, the app switcher, open, home, the
/// background work it has, open, lock), checked by every invariant that applies, with one environment action injected at one
/// point: the harness of the false-alarm sweep (issue 32: blame only what the code could prevent).
///
/// ```swift
/// let life = ScriptedLife(workload: correct.info, profile: .ios17)
/// let outcome = life.run(injecting: .forceQuit, at: ScriptedLife.Point(step: 2, moment: .beforeAppReacts))
/// #expect(outcome.violations.isEmpty, "\(outcome.description)")
/// ```
///
/// Contract: no randomness: the run's choices replay an empty sequence, so every draw takes its
/// simplest value (the shortest work, no fault, no preemption). Steps and the injected action run
/// on the device's system queue, as the random driver's do, and each only when the driver would
/// offer it in the app's state at that moment (a BGTask launch waits, a minute at a time, until a
/// request is eligible; an impossible injection is skipped and reported as not injected).
struct ScriptedLife {
    /// When, relative to a step, the action is injected.
    enum Moment: String, CaseIterable, Sendable {
        /// At the step's instant, after the step and before any app code it caused runs (the
        /// system queue's jobs come first at an instant).
        case beforeAppReacts = "before the app reacts"
        /// One microsecond later: the app's immediate reaction has run.
        case afterAppReacts = "after the app reacts"
        /// 50 ms later, while the shortest work (100 ms) is still in flight.
        case duringWork = "during the work"
        /// Halfway to the next step: the app has settled.
        case settled = "once settled"
    }

    /// A point of the life: a step (by index) and a moment after it.
    struct Point: Sendable, CustomStringConvertible {
        var step: Int
        var moment: Moment
        var description: String { "step \(step) (\(moment.rawValue))" }
    }

    /// What one life showed.
    struct Outcome {
        var violations: [Violation]
        /// Whether the injected action was carried out (it was possible at its point).
        var injected: Bool
        /// The trace, as `time event` lines, for a failure message.
        var trace: [String]
    }

    let workload: WorkloadInfo
    let profile: OSProfile
    var environment: EnvironmentConfig = EnvironmentConfig()
    var invariants: [Invariant] = Invariant.all
    /// The steps, in order; the first is always the launch.
    var steps: [EnvironmentAction]
    /// Virtual time between steps.
    var stepGap: VirtualDuration = .seconds(40)

    init(workload: WorkloadInfo, profile: OSProfile, steps: [EnvironmentAction]? = nil) {
        self.workload = workload
        self.profile = profile
        self.steps = steps ?? Self.defaultSteps(for: workload, profile: profile)
    }

    /// Launch, the app switcher (where a force-quit of the app on screen happens), open, home,
    /// each kind of background work the workload can be given (a BGTask launch per identifier it
    /// may schedule, so a refresh due after a processing task is reached too), open, lock.
    static func defaultSteps(for workload: WorkloadInfo, profile: OSProfile) -> [EnvironmentAction] {
        var steps: [EnvironmentAction] = [.launch, .appSwitcher, .open, .home]
        if profile.hasTaskScheduler {
            let launched = workload.permittedIdentifiers.filter { !workload.isWildcardIdentifier($0) }
            steps += launched.map { _ in .launchBackgroundTask }
        }
        if workload.backgroundModes.contains("remote-notification") && profile.silentPushEnabled {
            steps.append(.silentPush)
        }
        if workload.backgroundModes.contains("fetch") && !workload.usesTaskScheduler && profile.backgroundFetchAvailable {
            steps.append(.backgroundFetch)
        }
        return steps + [.open, .lock]
    }

    /// Runs the life with `action` injected at `point` (nil: the plain life).
    func run(injecting action: EnvironmentAction? = nil, at point: Point? = nil) -> Outcome {
        var environment = self.environment
        // Nothing is drawn (the script is the only driver); every weight is 1 so that the actions
        // offered only when weighed (reboot, app update) are possible.
        environment.weights = ActionWeights()
        for action in EnvironmentAction.allCases { environment.weights[action] = 1 }
        let spec = RunSpec(profile: profile, environment: environment, workload: workload,
                           invariants: invariants, horizon: .seconds(3 * 3_600))
        let device = SimulatedDevice(profile: profile, environment: environment, workload: workload,
                                     choices: ChoiceSource(replaying: ChoiceSequence()))
        defer { device.tearDown() }
        let recorder = TraceRecorder<SimEvent>(keepsEntries: true)
        let checkers = spec.invariants.filter { $0.applies(workload) }.map { ($0.id, $0.makeChecker(spec)) }
        let monitor = RunMonitor(recorder: recorder, checkers: checkers)
        device.monitor = monitor
        let script = Script(device: device, steps: steps, gap: stepGap, injection: action.map { ($0, point!) })
        script.schedule(step: 0, at: .zero)
        var outcome = Outcome(violations: [], injected: false, trace: [])
        device.scheduler.runLast(until: spec.horizon + spec.settleLimit, maxSteps: spec.maxSteps) { _ in
            if let deadlock = device.scheduler.deadlock { device.emit(.deadlock(deadlock.description)) }
            device.emit(.runPhase("end"))
            monitor.finish(at: device.now)
            outcome = Outcome(violations: monitor.violations, injected: script.injected,
                              trace: recorder.entries.map { "\($0.time) \($0.event)" })
        }
        return outcome
    }
}

/// The jobs of one scripted life: each step at its time (postponed while impossible), the
/// injection after its step, and the settling `home` after the last step.
private final class Script {
    let device: SimulatedDevice
    let driver: EnvironmentDriver
    let steps: [EnvironmentAction]
    let gap: VirtualDuration
    let injection: (action: EnvironmentAction, point: ScriptedLife.Point)?
    var injected = false

    init(device: SimulatedDevice, steps: [EnvironmentAction], gap: VirtualDuration,
         injection: (EnvironmentAction, ScriptedLife.Point)?) {
        self.device = device
        self.driver = EnvironmentDriver(device: device, horizon: .seconds(0))
        self.steps = steps
        self.gap = gap
        self.injection = injection
    }

    /// Whether the random driver would offer `action` now.
    func isPossible(_ action: EnvironmentAction) -> Bool {
        driver.possibleActions().contains(action)
    }

    func perform(_ action: EnvironmentAction) {
        device.emit(.action(action))
        driver.perform(action)
    }

    func schedule(step index: Int, at time: VirtualTime, attempts: Int = 0) {
        device.scheduler.async(at: time, on: device.systemQueue) { [self] in
            guard index < steps.count else { return settle() }
            let action = steps[index]
            // A BGTask launch waits for an eligible request (a refresh's earliest date), up to 2 h.
            if !isPossible(action), action == .launchBackgroundTask, attempts < 120 {
                return schedule(step: index, at: time + .seconds(60), attempts: attempts + 1)
            }
            if isPossible(action) {
                perform(action)
            } else if action == .open, isPossible(.launch) {
                perform(.launch)  // the user comes back to an app that is no longer running
            }
            scheduleInjection(after: index)
            schedule(step: index + 1, at: device.now + gap)
        }
    }

    private func scheduleInjection(after index: Int) {
        guard let injection, injection.point.step == index else { return }
        let delay: VirtualDuration
        switch injection.point.moment {
        case .beforeAppReacts: delay = .zero
        case .afterAppReacts: delay = .microseconds(1)
        case .duringWork: delay = .milliseconds(50)
        case .settled: delay = .microseconds(gap.microseconds / 2)
        }
        device.scheduler.async(at: device.now + delay, on: device.systemQueue) { [self] in
            guard isPossible(injection.action) else { return }
            injected = true
            perform(injection.action)
        }
    }

    /// The random driver's settling step: the app, if on screen, goes home.
    private func settle() {
        device.emit(.runPhase("settle"))
        guard let app = device.liveApp, app.state.isForeground else { return }
        perform(.home)
    }
}
