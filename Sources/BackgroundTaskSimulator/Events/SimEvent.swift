public import BackgroundTaskKit
public import DeterministicSimulation

/// One thing that happened in a simulated run: what the environment did, what the simulated iOS
/// did, what the client code called. The trace of a run is the ordered list of these with their
/// virtual times; invariant checkers read the same stream.
///
/// Contract: every case hashes all of its payload in a fixed order (``hash(into:)``), so the
/// trace digest changes if and only if the run's observable behaviour changes.
///
/// Each case is described once, and every output derives from that description: the trace
/// digest, the trace's name and fields (`replay --trace`, report failures), coverage slots, the
/// checker table per kind and the Perfetto track. Adding a case is three edits in `Events/`, each
/// forced by the compiler or the tests:
/// 1. the case here, and its branch in ``describe(to:)`` (an exhaustive switch): its ``Kind``,
///    then each payload value with its trace key;
/// 2. a ``Kind`` with the next number (a gap or a reused number fails);
/// 3. its ``KindSpec`` row in ``Kind/spec`` (an exhaustive switch): name, example event and
///    ``PerfettoTrack``;
/// then pin its hash and printed line in `SimEventHashingTests`/`SimEventDescriptionTests`.
public enum SimEvent: Sendable, Equatable {
    // The environment.
    case action(EnvironmentAction)
    case networkChanged(available: Bool)
    case backgroundRefreshChanged(enabled: Bool)

    // The process and its lifecycle (B).
    case processLaunched(process: Int, inBackground: Bool)
    case stateChanged(from: AppProcessState, to: AppProcessState)
    case lifecycle(LifecycleEvent)
    case sceneWillConnect
    case sceneDidDisconnect
    case terminated(TerminationReason, openTasks: [Int])

    // UIKit background tasks (A).
    case taskBegan(id: Int, name: String, state: AppProcessState)
    case taskBeginDenied(name: String)
    case taskEnded(id: Int, name: String)
    case endedUnknownTask(id: Int)
    case budgetStarted(deadline: VirtualTime)
    case expirationCallout(ids: [Int], early: Bool)
    case expirationHandlerCalled(id: Int)
    case expirationHandlersReturned(openIDs: [Int], elapsed: VirtualDuration)
    case console(String)
    /// The app is in the background and nothing holds it awake: no UIKit task, no BGTask. It
    /// will be suspended shortly (B2.3); `reason` says what led here.
    case nothingHeld(reason: String)

    // BGTaskScheduler (C).
    case taskRegistered(identifier: String, accepted: Bool)
    case requestSubmitted(identifier: String, kind: String, error: String?)
    case requestCancelled(identifier: String)
    case bgTaskLaunched(identifier: String, task: Int, kind: String)
    case bgTaskExpiring(identifier: String, task: Int, hasHandler: Bool)
    case bgTaskCompleted(identifier: String, task: Int, success: Bool, repeated: Bool)
    case bgTaskProgress(identifier: String, task: Int, completed: Int64, total: Int64)

    // Client work the workload declares, so the harness can tell whether it was protected.
    case workStarted(id: Int, name: String)
    case workFinished(id: Int, name: String, cancelled: Bool)

    // Checkers and the run.
    case violation(invariant: String, message: String)
    case runPhase(String)
    /// The run's controlled concurrency, at its start: strategy, rate and delays (absent when
    /// the run has one thread).
    case threads(String)
    /// Every live simulated thread waits and nothing can wake one: each thread and what it
    /// waits for. The run stops here.
    case deadlock(String)
    /// The app kept running without ever waiting for time to pass (a loop that never waits:
    /// ``DeterministicSimulation/BusyLoop``). The run stops here.
    case busyLoop(String)
    /// Swift concurrency left the run's deterministic world (an async workload's escape, named
    /// with where and when it was seen). Recorded at the end of the run.
    case asyncEscape(String)

    // Data the app keeps (``DurableRecord``).
    /// A record's in-memory copy changed or was saved: how many changes are not on disk yet
    /// (0 right after a save). Read by `work-survives-termination`.
    case recordChanged(record: String, unsavedChanges: Int)
    /// A network request (``SimulatedNetwork``) started (`outcome` "start") or ended ("success",
    /// or a ``NetworkError`` name), for work item `work` (0 when none).
    case networkRequest(request: Int, name: String, work: Int, outcome: String)

    // Exploration.
    /// A workload or the simulator reached a named rare path (`WorkloadContext.probe(_:)`).
    case probe(String)

    // The device's storage (``SimulatedFiles``).
    /// A file operation: `operation` is "write", "read", "lock" or "unlock" (a shared-container
    /// lock); `protection` the file's ``FileProtection``; `work` the work item it serves (0 when
    /// none); `outcome` "ok" or a ``FileError`` name. Read by `protected-data-available` and
    /// `no-file-lock-at-suspend`.
    case fileAccess(file: String, operation: String, protection: String, work: Int, outcome: String)

    // The app's screen (``SimulatedScreen``).
    /// The workload's view appeared (`viewDidAppear`, `visible` true) or is disappearing
    /// (`viewWillDisappear`).
    case viewAppearance(visible: Bool)
    // Other background modes (D).
    /// A silent push reached the device (D2): `outcome` is "delivered" (the app is woken or
    /// launched and its handler will be called), "throttled" (rate limited, dropped),
    /// "forceQuitBlocked" (the user force-quit the app: not launched) or, when the handler was
    /// due, "noHandler" (the process registered none: nothing to complete).
    case pushReceived(push: Int, outcome: String)
    /// The app called push `push`'s fetch completion handler with `result` (newData, noData,
    /// failed); `repeated` when it had already been called.
    case pushCompleted(push: Int, result: String, repeated: Bool)
    /// Push `push`'s time ran out with its completion handler not called (D2);
    /// `terminates` when the app was in the background and the system kills it.
    case pushExpired(push: Int, terminates: Bool)
    /// An audio or location session (``BackgroundModeAssertion``, D5) began (`held` true) or
    /// ended: while one is held the app is not suspended and its budget is stopped.
    case modeAssertion(mode: String, held: Bool)
    /// A background fetch (D3): `phase` "launch" (the system wakes or launches the app for it),
    /// "noHandler" (the process registered none) or "expire" (its time ran out with the
    /// completion handler not called; the app is killed unless in the foreground).
    case backgroundFetch(fetch: Int, phase: String)
    /// The app called fetch `fetch`'s completion handler; `repeated` when it had already been.
    case fetchCompleted(fetch: Int, result: String, repeated: Bool)

    // Background URLSession (D1) and accessory wakes (D4).
    /// A background session's transfer (``BackgroundURLSessionService``): `phase` "start", "wait"
    /// (the network is down: its clock stops), "resume", "finish", "fail", "cancel" (the user
    /// force-quit the app), or "deliver" (its completion reaches the session's delegate).
    case backgroundTransfer(session: String, task: Int, phase: String)
    /// A background session's events: `phase` "create" (the process made a session object with
    /// this identifier; `wake` 0), "wake" (its transfers are done and the system wakes or
    /// launches the app for them), "handleEvents" (`handleEventsForBackgroundURLSession` is
    /// called), "noHandler" (the process registered none) or "didFinishEvents"
    /// (`urlSessionDidFinishEvents` after the wake's completions were delivered).
    case backgroundSessionEvents(session: String, wake: Int, phase: String)
    /// The app called wake `wake`'s completion handler: on the main thread or not, after the
    /// wake's `urlSessionDidFinishEvents` or not, and whether it had already been called.
    case backgroundSessionCompleted(session: String, wake: Int, onMain: Bool, afterEvents: Bool, repeated: Bool)
    /// Wake `wake`'s time ran out with its completion handler not called (D1): whether its
    /// events had been delivered (the app recreated the session), and whether the system kills
    /// the app for it.
    case backgroundSessionExpired(session: String, wake: Int, eventsDelivered: Bool, terminates: Bool)
    /// An external accessory or Bluetooth event for the app (D4): `phase` "wake" (the app is woken
    /// or launched in the background with a short window), "forceQuitBlocked" or "end" (the
    /// window is over).
    case accessoryWake(mode: String, phase: String)
    // Rules of issue 19's last part (A7.3, C2.5).
    /// A watchdog would have killed the app (0x8badf00d, `detail` says which) but the debugger
    /// is attached, which disables watchdogs (A7.3, ``OSProfile/debuggerAttached``).
    case watchdogSuppressed(detail: String)
    /// `submit` returned success but the system dropped the request: it never becomes pending
    /// (C2.5, ``OSProfile/submitDropProbability``).
    case requestDropped(identifier: String)
    // Issue 36.
    /// Two accesses to the same shared state that nothing orders, at least one a write (the
    /// engine's ``DataRace``, described): recorded when the second access is made.
    case dataRace(String)
    /// A read or write of shared state (a `SharedState` of the app) in a run that checks for data
    /// races, made right after its scheduling point: with ``dataRace(_:)`` a trace shows both
    /// conflicting steps, each on its own thread at its own time.
    case sharedAccess(state: String, write: Bool)
}

/// Things the environment does to the device (user actions and system events).
public enum EnvironmentAction: String, Sendable, CaseIterable, CustomStringConvertible {
    case launch
    case open
    case home
    case lock
    case appSwitcher
    case forceQuit
    case incomingCall
    case endCall
    case memoryPressureKill
    case earlyExpiry
    case backgroundRefreshOff
    case backgroundRefreshOn
    case networkDown
    case networkUp
    case launchBackgroundTask
    case expireBackgroundTask
    case sceneDisconnect
    case userCancelsContinuedTask
    /// The user plugs the device in (C3.3).
    case powerConnected
    /// The user unplugs the device (C3.3).
    case powerDisconnected
    /// The device restarts: the app's process dies with no callback (B3.1) and the device stays
    /// locked, before its first unlock, until the user opens or launches the app.
    case reboot
    /// The user navigates away from the workload's view (`viewWillDisappear`).
    case viewDisappears
    /// The user navigates back to the workload's view (`viewDidAppear`).
    case viewAppears
    /// The user turns Low Power Mode on: refresh and processing launches are held back.
    case lowPowerModeOn
    /// The user turns Low Power Mode off.
    case lowPowerModeOff
    /// The App Store updates the app: the process ends with no callback, and pending BGTask
    /// requests may be dropped (C3.7).
    case appUpdate
    /// A silent (content-available) push for the app arrives (D2).
    case silentPush
    /// The system launches a background fetch (D3, iOS 7-12).
    case backgroundFetch
    /// An external accessory or a Bluetooth LE device sends the app data (D4): an app with the
    /// `external-accessory` or `bluetooth-central` background mode is woken or launched in the
    /// background for ``OSProfile/accessoryWakeWindow``.
    case accessoryWake

    public var description: String { rawValue }

    /// The actions in declaration order, computed once (`allCases` builds a new array per call).
    static let ordered = allCases
}
