import BackgroundTaskKit
import Foundation
@testable import BackgroundTaskSimulator
import DeterministicSimulation

extension ScriptedDevice {
    /// A device whose app is launched to the foreground at 0 s and sent home at `homeAt`.
    static func backgrounded(
        _ profile: OSProfile = .ios17, homeAt: VirtualTime = .seconds(10),
        environment: EnvironmentConfig = .scripted, hooks: ScriptedHooks = ScriptedHooks()
    ) -> ScriptedDevice {
        let script = ScriptedDevice(profile: profile, environment: environment, hooks: hooks)
        script.at(.zero) { $0.launch() }
        script.at(homeAt) { $0.home() }
        return script
    }
}

/// Runs the random environment driver over a few seeds with one action's weight set, for the
/// rules whose parameter is an environment weight: the action happens when weighted, never at 0.
enum DriverProbe {
    /// The weights that move the app through every state, with `action` at `weight`.
    static func weights(_ action: EnvironmentAction, _ weight: Double) -> ActionWeights {
        var weights = ActionWeights()
        for (base, value) in [(EnvironmentAction.launch, 1.0), (.open, 1), (.home, 1), (.endCall, 1)] {
            weights[base] = value
        }
        weights[action] = weight
        return weights
    }

    /// The traces of `seeds` runs with `action` at `weight`.
    static func traces(
        of action: EnvironmentAction, weight: Double, profile: OSProfile = .ios26, seeds: Int = 12
    ) -> [[TraceEntry<SimEvent>]] {
        var environment = EnvironmentConfig.scripted
        environment.weights = weights(action, weight)
        environment.gaps = .seconds(1)...(.seconds(20))
        let spec = RunSpec(profile: profile, environment: environment, workload: ProbeWorkload.info,
                           invariants: [], horizon: .seconds(900))
        return (0..<seeds).map { index in
            SimulationRunner.run(spec, choices: ChoiceSource(seed: Seed(7).derive(index: UInt64(index))),
                                 keepTrace: true).trace
        }
    }

    /// Whether `action` happens when weighted and never at weight 0 (the parameter takes effect).
    static func isDrivenByWeight(_ action: EnvironmentAction) -> Bool {
        count(of: action, weight: 5) > 0 && count(of: action, weight: 0) == 0
    }

    /// How many times the driver performed `action` over the probe runs.
    static func count(of action: EnvironmentAction, weight: Double, profile: OSProfile = .ios26) -> Int {
        traces(of: action, weight: weight, profile: profile).joined().filter { $0.event == .action(action) }.count
    }
}

/// The probe app: keeps a refresh request pending, begins a task on every background entry, and
/// starts a continued-processing task whenever it becomes active (iOS 26), so every weighted
/// action has something to act on.
final class ProbeWorkload: Workload, @unchecked Sendable {
    // @unchecked: confined to the run's thread.
    static let refresh = "probe.refresh"
    static let continued = "probe.continued.*"
    static let info = WorkloadInfo(name: "probe", summary: "touches every system feature",
                                   permittedIdentifiers: [refresh, continued], backgroundModes: ["fetch"]) {
        ProbeWorkload()
    }

    var observation: LifecycleObservation?
    var nextContinued = 1

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let scheduler = context.taskScheduler
        _ = scheduler.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in
            task.expirationHandler = { task.setTaskCompleted(success: false) }
            app.backgroundQueue.asyncAfter(.seconds(10)) { task.setTaskCompleted(success: true) }
        }
        try? scheduler.submit(TaskRequest(identifier: Self.refresh, kind: .appRefresh))
        observation = app.addLifecycleObserver { [unowned self] event in
            switch event {
            case .didEnterBackground:
                let id = Box(BackgroundTaskIdentifier.invalid)
                id.value = app.beginBackgroundTask(withName: "probe") { app.endBackgroundTask(id.value) }
                app.backgroundQueue.asyncAfter(.seconds(20)) { app.endBackgroundTask(id.value) }
                try? scheduler.submit(TaskRequest(identifier: Self.refresh, kind: .appRefresh))
            case .didBecomeActive:
                startContinued(context)
            default: break
            }
        }
    }

    private func startContinued(_ context: WorkloadContext) {
        guard context.application.device.profile.hasContinuedProcessing else { return }
        let identifier = "probe.continued.\(nextContinued)"
        nextContinued += 1
        let app = context.application
        _ = context.taskScheduler.register(forTaskWithIdentifier: identifier, using: nil) { task in
            task.expirationHandler = { task.setTaskCompleted(success: false) }
            for step in 1...6 {
                app.backgroundQueue.asyncAfter(.seconds(Int64(step * 5))) {
                    task.updateProgress(completedUnitCount: Int64(step), totalUnitCount: 6)
                    if step == 6 { task.setTaskCompleted(success: true) }
                }
            }
        }
        try? context.taskScheduler.submit(TaskRequest(identifier: identifier,
            kind: .continuedProcessing(title: "probe", subtitle: "", strategy: .fail)))
    }
}

/// What a scripted launch handler does with its BGTask.
enum TaskBehaviour {
    /// Sets an expiration handler that completes unsuccessfully, completes after the duration.
    case completeAfter(VirtualDuration)
    /// Sets an expiration handler that does nothing and never completes.
    case never
    /// Sets no expiration handler and never completes.
    case noHandler
    /// Reports progress every `every` until the task ends (continued processing).
    case progress(every: VirtualDuration)
}

extension ScriptedDevice {
    static let refresh = "com.example.refresh"
    static let processing = "com.example.processing"
    static let continuedFamily = "com.example.continued.*"
    static let continued = "com.example.continued.export"

    /// A device whose app registers `identifiers` in `didFinishLaunching` (on `queue` when set,
    /// else nil), each launch handler doing `behaviour`. Nothing is launched yet.
    static func withTasks(
        _ profile: OSProfile = .ios17, identifiers: [String] = [refresh, processing],
        behaviour: TaskBehaviour = .completeAfter(.seconds(5)), onMainQueue: Bool = false,
        environment: EnvironmentConfig = .scripted
    ) -> ScriptedDevice {
        let hooks = ScriptedHooks()
        let script = ScriptedDevice(profile: profile, permitted: [refresh, processing, continuedFamily],
                                    environment: environment, hooks: hooks)
        hooks.didFinishLaunching = { [unowned script] context in
            for identifier in identifiers { script.register(identifier, behaviour: behaviour, onMainQueue: onMainQueue) }
            _ = context
        }
        return script
    }

    /// Registers `identifier` in the current process; returns what `register` returned.
    @discardableResult
    func register(_ identifier: String, behaviour: TaskBehaviour = .completeAfter(.seconds(5)),
                  onMainQueue: Bool = false) -> Bool {
        let app = self.app
        let queue: (any WorkQueue)? = onMainQueue ? app.mainQueue : nil
        return scheduler.register(forTaskWithIdentifier: identifier, using: queue) { [unowned self] task in
            launchedTasks.value.append(task)
            switch behaviour {
            case .completeAfter(let duration):
                task.expirationHandler = { task.setTaskCompleted(success: false) }
                app.backgroundQueue.asyncAfter(duration.duration) { task.setTaskCompleted(success: true) }
            case .never:
                task.expirationHandler = {}
            case .noHandler:
                break
            case .progress(let every):
                task.expirationHandler = { task.setTaskCompleted(success: false) }
                let step = Box<Int64>(0)
                let timer = Box<(@Sendable () -> Void)?>(nil)
                timer.value = {
                    step.value += 1
                    task.updateProgress(completedUnitCount: step.value, totalUnitCount: 1_000)
                    app.backgroundQueue.asyncAfter(every.duration) { timer.value?() }
                }
                app.backgroundQueue.asyncAfter(every.duration) { timer.value?() }
            }
        }
    }

    /// Submits `request` from the current process; the error, if any.
    @discardableResult
    func submit(_ identifier: String, _ kind: TaskRequest.Kind = .appRefresh, earliest: Date? = nil)
        -> TaskSchedulerError?
    {
        do throws(TaskSchedulerError) {
            try scheduler.submit(TaskRequest(identifier: identifier, kind: kind, earliestBeginDate: earliest))
            return nil
        } catch {
            return error
        }
    }

    static let processingKind = TaskRequest.Kind.processing(requiresNetworkConnectivity: false,
                                                            requiresExternalPower: false)
    static let continuedKind = TaskRequest.Kind.continuedProcessing(title: "Export", subtitle: "", strategy: .queue)
    static func continuedKind(_ strategy: TaskRequest.SubmissionStrategy) -> TaskRequest.Kind {
        .continuedProcessing(title: "Export", subtitle: "", strategy: strategy)
    }

    /// The identifiers of pending requests.
    var pendingIdentifiers: [String] { device.taskScheduler.pending.map(\.identifier) }
}
