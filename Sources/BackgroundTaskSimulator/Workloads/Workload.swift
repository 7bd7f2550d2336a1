/// Client code under test: what an app does with background tasks, written against
/// BackgroundTaskKit's host protocols and run on the simulated iOS.
///
/// A new instance is made for every process the run launches (as a real app object is), and
/// gets its entry points as app-delegate calls; everything else it does through the context's
/// hosts (queues, lifecycle observers, background tasks, BGTaskScheduler).
///
/// ```swift
/// final class SaveOnBackground: Workload {
///     var observation: LifecycleObservation?
///     func didFinishLaunching(_ context: WorkloadContext) {
///         let app = context.application
///         observation = app.addLifecycleObserver { event in
///             guard event == .didEnterBackground else { return }
///             let work = context.startWork("save")
///             let task = BackgroundTaskToken(name: "save", host: app) { work.cancel() }
///             app.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
///                 work.finish(); task.invalidate()
///             }
///         }
///     }
/// }
/// ```
///
/// Contract: a workload runs only on the simulated queues it is given (never real threads or
/// real timers) and draws any randomness from its context, so its runs are reproducible.
public protocol Workload: AnyObject {
    /// `application(_:didFinishLaunchingWithOptions:)`: BGTaskScheduler registrations belong here
    /// (C1.1). Called on the main queue of a new process, in the foreground or background, on the
    /// run's main actor (as UIKit's app delegate is), so an `@MainActor` class conforms as it is.
    @MainActor func didFinishLaunching(_ context: WorkloadContext)

    /// `scene(_:willConnectTo:options:)`, after launch finished (B1.3). Default: nothing.
    /// Not main-actor isolated here (an `@MainActor` workload implements it `nonisolated`):
    /// the simulator calls the scene callbacks from the environment's own step, not as a job of
    /// the main queue.
    func sceneWillConnect(_ context: WorkloadContext)

    /// `sceneDidDisconnect(_:)`: UIKit released the scene in the background (B1.3). Default:
    /// nothing. Not main-actor isolated, as ``sceneWillConnect(_:)``.
    func sceneDidDisconnect(_ context: WorkloadContext)
}

extension Workload {
    public func sceneWillConnect(_ context: WorkloadContext) {}
    public func sceneDidDisconnect(_ context: WorkloadContext) {}
}

/// What the harness knows about a workload: its name, what it models, its Info.plist, and how to
/// make an instance.
///
/// ```swift
/// let info = WorkloadInfo(name: "my-uploader", summary: "uploads on background entry") {
///     MyUploader()
/// }
/// ```
public struct WorkloadInfo: Sendable {
    /// The scenario-file name, kebab-case.
    public var name: String
    /// One line on what the code does.
    public var summary: String
    /// `BGTaskSchedulerPermittedIdentifiers` (C1.2); entries ending in `.*` permit a family of
    /// continued-processing identifiers (C6.2).
    public var permittedIdentifiers: [String]
    /// `UIBackgroundModes`: `fetch` for refresh tasks, `processing` for processing tasks (C2.3).
    public var backgroundModes: [String]
    /// Refresh identifiers the app means to keep scheduled, one after another (checked by
    /// `refresh-stays-scheduled`).
    public var repeatingRefreshIdentifiers: [String]
    /// Whether the workload uses Swift concurrency (tasks, `await`, ``WorkloadContext/clock``):
    /// its runs get a pumped task executor, a virtual clock and escape checking
    /// (`no-async-escape`).
    public var usesAsync: Bool
    /// Whether the workload transfers through a background `URLSession`
    /// (``WorkloadContext/backgroundURLSession(identifier:onTaskCompleted:onFinishEvents:)``, D1):
    /// the background-session invariants apply to it.
    public var usesBackgroundURLSession: Bool
    /// Whether the workload's runs track happens-before and `no-data-race` applies: every access
    /// to its shared state (the shared-state type, or
    /// ``DeterministicSimulation/Scheduler/recordSharedAccess(_:to:name:)``) is checked for a data
    /// race. On by default, so no workload need declare it; `false` opts a workload out. A run
    /// whose code records no access pays for the tracking alone (the token workload with
    /// threads: 1.09x the instructions per event, callgrind, 100 runs).
    public var sharesState: Bool
    /// The app's entitlements, e.g. ``WorkloadInfo/backgroundGPUEntitlement`` (C6.5). Default
    /// none.
    public var entitlements: [String] = []
    /// Makes the instance for a new process. Called on the run's main actor, so an `@MainActor` workload's initializer can be called
    /// directly.
    public var make: @MainActor @Sendable () -> any Workload

    public init(
        name: String, summary: String, permittedIdentifiers: [String] = [], backgroundModes: [String] = [],
        repeatingRefreshIdentifiers: [String] = [], usesAsync: Bool = false,
        usesBackgroundURLSession: Bool = false, sharesState: Bool = true,
        make: @escaping @MainActor @Sendable () -> any Workload
    ) {
        self.sharesState = sharesState
        self.usesAsync = usesAsync
        self.usesBackgroundURLSession = usesBackgroundURLSession
        self.name = name
        self.summary = summary
        self.permittedIdentifiers = permittedIdentifiers
        self.backgroundModes = backgroundModes
        self.repeatingRefreshIdentifiers = repeatingRefreshIdentifiers
        self.make = make
    }

    /// The entitlement a continued-processing request needs to use the GPU in the background
    /// (C6.5).
    public static let backgroundGPUEntitlement = "com.apple.developer.background-tasks.continued-processing.gpu"

    /// Whether the workload uses BGTaskScheduler at all.
    public var usesTaskScheduler: Bool { !permittedIdentifiers.isEmpty }

    /// Whether `identifier` is permitted, directly or by a `prefix.*` entry (C1.2, C6.2).
    public func permits(_ identifier: String) -> Bool {
        permittedIdentifiers.contains { entry in
            if entry.hasSuffix(".*") { return identifier.hasPrefix(String(entry.dropLast())) }
            return entry == identifier
        }
    }

    /// Whether `identifier` falls under a wildcard entry (continued processing, C6.2).
    public func isWildcardIdentifier(_ identifier: String) -> Bool {
        permittedIdentifiers.contains { $0.hasSuffix(".*") && identifier.hasPrefix(String($0.dropLast())) }
    }
}
