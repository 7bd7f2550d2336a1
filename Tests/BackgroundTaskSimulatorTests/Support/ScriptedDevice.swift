import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation

/// A simulated device driven by a script instead of the random environment: exact actions at
/// exact virtual times, every scheduler interleaving the simplest one (an empty replayed choice
/// sequence draws 0 everywhere), so a test reads as the documented sequence it reproduces.
///
/// ```swift
/// let script = ScriptedDevice()
/// script.at(.seconds(0)) { $0.launch() }
/// script.at(.seconds(10)) { $0.home() }
/// script.run(until: .seconds(60))
/// #expect(script.states.last == .suspended)
/// ```
///
/// Contract: actions run on the device's system queue at their time, before app work due at the
/// same instant (the system queue is created before any process queue). Every event is logged
/// with its time; nothing is random unless a test sets a fault probability of 1.
final class ScriptedDevice: @unchecked Sendable {
    // @unchecked: a test drives one device on one thread.
    let device: SimulatedDevice
    private(set) var log: [(time: VirtualTime, event: SimEvent)] = []
    /// The queue of the job running now (from the scheduler's job-start hook).
    private(set) var currentQueue: QueueID?
    let hooks: ScriptedHooks
    /// Every BGTask a scripted launch handler received, in order.
    let launchedTasks = Box<[any ScheduledTask]>([])

    init(
        profile: OSProfile = .ios17, permitted: [String] = [], modes: [String] = ["fetch", "processing"],
        environment: EnvironmentConfig = .scripted, hooks: ScriptedHooks = ScriptedHooks(),
        choices: ChoiceSource = ChoiceSource(replaying: ChoiceSequence()), entitlements: [String] = [],
        usesAsync: Bool = false
    ) {
        self.hooks = hooks
        var info = WorkloadInfo(name: "scripted", summary: "a test script", permittedIdentifiers: permitted,
                                backgroundModes: modes) { ScriptedWorkload(hooks: hooks) }
        info.entitlements = entitlements
        info.usesAsync = usesAsync
        device = SimulatedDevice(profile: profile, environment: environment, workload: info,
                                 choices: choices)
        device.addSink { [unowned self] event, time in log.append((time, event)) }
        device.scheduler.onJobStart = { [unowned self] info in currentQueue = info.queue }
    }

    /// Unwinds threads still blocked or preempted when the test ends (a scheduler must not be
    /// released with suspended threads).
    deinit { device.tearDown() }

    // MARK: Script

    /// Runs `action` at `time` on the system queue.
    func at(_ time: VirtualTime, _ action: @escaping (ScriptedDevice) -> Void) {
        device.scheduler.async(at: time, on: device.systemQueue) { [unowned self] in action(self) }
    }

    /// Runs everything due up to `time`; the clock ends at `time`.
    func run(until time: VirtualTime) {
        _ = device.scheduler.run(until: time, maxSteps: 1_000_000)
    }

    /// The current (or last) process.
    var app: SimulatedApplication { device.app! }
    var context: WorkloadContext { app.core.context! }
    var scheduler: SimulatedTaskScheduler { context.taskScheduler }
    var now: VirtualTime { device.now }

    // MARK: User and system actions

    func launch(inBackground: Bool = false) { device.launchProcess(inBackground: inBackground) }
    func home() { device.liveApp?.enterBackground() }
    func open() {
        device.blockedByForceQuit = false
        device.liveApp?.enterForeground()
    }
    func interrupt(appSwitcher: Bool = false) { device.liveApp?.resignActive(toAppSwitcher: appSwitcher) }
    func endInterruption() { device.liveApp?.becomeActiveAgain() }
    func forceQuit() { device.liveApp?.forceQuit() }
    func memoryPressureKill() { device.liveApp?.jetsam() }
    func earlyExpiry() { device.liveApp?.expireOutstandingTasks(early: true) }
    func launchEligibleTask() { device.taskScheduler.launchFirstEligible() }
    /// Performs an environment action exactly as the random driver would.
    func perform(_ action: EnvironmentAction) {
        EnvironmentDriver(device: device, horizon: .seconds(0)).perform(action)
    }

    // MARK: Client code

    /// What an expiration handler does.
    enum OnExpiry {
        /// Ends its task, as it should (A3.2).
        case end
        /// Returns without ending its task.
        case nothing
        /// Blocks the main thread for the duration, then ends its task.
        case blockThenEnd(VirtualDuration)
        /// No handler at all.
        case noHandler
    }

    /// `beginBackgroundTask(withName:expirationHandler:)` on the current process.
    @discardableResult
    func begin(_ name: String? = "work", onExpiry: OnExpiry = .end) -> BackgroundTaskIdentifier {
        let app = self.app
        let box = Box(BackgroundTaskIdentifier.invalid)
        let handler: ExpirationHandler?
        switch onExpiry {
        case .end: handler = { app.endBackgroundTask(box.value) }
        case .nothing: handler = {}
        case .blockThenEnd(let duration):
            handler = {
                app.performBlockingWork(for: duration.duration)
                app.endBackgroundTask(box.value)
            }
        case .noHandler: handler = nil
        }
        box.value = app.beginBackgroundTask(withName: name, expirationHandler: handler)
        return box.value
    }

    func end(_ id: BackgroundTaskIdentifier) { app.endBackgroundTask(id) }

    // MARK: What happened

    /// The dotted names of every event, in order (`lifecycle.didEnterBackground`, …).
    var names: [String] { log.map(\.event.name) }

    /// The names of the events matching `prefixes`, in order.
    func names(matching prefixes: String...) -> [String] {
        names.filter { name in prefixes.contains { name.hasPrefix($0) } }
    }

    /// The payloads `extract` finds in the log, with their times.
    func events<T>(_ extract: (SimEvent) -> T?) -> [(time: VirtualTime, value: T)] {
        log.compactMap { entry in extract(entry.event).map { (entry.time, $0) } }
    }

    /// The times of the events matching `predicate`.
    func times(_ predicate: (SimEvent) -> Bool) -> [VirtualTime] {
        log.filter { predicate($0.event) }.map(\.time)
    }

    /// The states the process moved to, in order.
    var states: [AppProcessState] {
        events { if case .stateChanged(_, let to) = $0 { to } else { nil } }.map(\.value)
    }

    var stateTimes: [(time: VirtualTime, value: AppProcessState)] {
        events { if case .stateChanged(_, let to) = $0 { to } else { nil } }
    }

    /// The lifecycle notifications delivered, in order.
    var lifecycle: [LifecycleEvent] {
        events { if case .lifecycle(let event) = $0 { event } else { nil } }.map(\.value)
    }

    var console: [String] { events { if case .console(let line) = $0 { line } else { nil } }.map(\.value) }

    /// Terminations, with their times.
    var terminations: [(time: VirtualTime, value: TerminationReason)] {
        events { if case .terminated(let reason, _) = $0 { reason } else { nil } }
    }

    /// Times the expiration handler of task `id` was called.
    func handlerCalls(_ id: BackgroundTaskIdentifier) -> [VirtualTime] {
        times { $0 == .expirationHandlerCalled(id: id.rawValue) }
    }

    /// The time the process was last suspended.
    var suspendedAt: VirtualTime? { stateTimes.last { $0.value == .suspended }?.time }

    /// The deadlines of the budgets started.
    var deadlines: [VirtualTime] { events { if case .budgetStarted(let d) = $0 { d } else { nil } }.map(\.value) }

    /// BGTask events of one kind.
    var bgLaunches: [(time: VirtualTime, value: String)] {
        events { if case .bgTaskLaunched(let id, _, _) = $0 { id } else { nil } }
    }
    var bgExpiries: [(time: VirtualTime, value: Bool)] {
        events { if case .bgTaskExpiring(_, _, let has) = $0 { has } else { nil } }
    }
    var bgCompletions: [(time: VirtualTime, value: (success: Bool, repeated: Bool))] {
        events { if case .bgTaskCompleted(_, _, let s, let r) = $0 { (s, r) } else { nil } }
    }
}

/// The entry points of the scripted app, set by the test.
final class ScriptedHooks: @unchecked Sendable {
    var didFinishLaunching: (WorkloadContext) -> Void = { _ in }
    var sceneWillConnect: (WorkloadContext) -> Void = { _ in }
    var sceneDidDisconnect: (WorkloadContext) -> Void = { _ in }
    init() {}
}

/// The workload a ``ScriptedDevice`` runs: calls the hooks.
final class ScriptedWorkload: Workload {
    let hooks: ScriptedHooks
    init(hooks: ScriptedHooks) { self.hooks = hooks }
    func didFinishLaunching(_ context: WorkloadContext) { hooks.didFinishLaunching(context) }
    func sceneWillConnect(_ context: WorkloadContext) { hooks.sceneWillConnect(context) }
    func sceneDidDisconnect(_ context: WorkloadContext) { hooks.sceneDidDisconnect(context) }
}

/// A mutable value shared with `@Sendable` closures in a single-threaded test.
final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

extension EnvironmentConfig {
    /// No random actions and no random faults.
    static var scripted: EnvironmentConfig {
        EnvironmentConfig(weights: ActionWeights(), faults: Faults(beginFailureProbability: 0, systemBusyProbability: 0))
    }
}

extension SimEvent {
    var isTermination: Bool { if case .terminated = self { true } else { false } }
}
