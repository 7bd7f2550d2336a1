public import DeterministicSimulation

/// The parameters of one iOS version family: how long the background budget is, when expiration
/// handlers run, which watchdogs apply, and every rule the reference marks UNCERTAIN, as a value
/// the scenario can override.
///
/// ```swift
/// var profile = OSProfile.ios17
/// profile.expiryLeadSeconds = 5          // A3.7 is uncertain: try another lead time
/// ```
///
/// Contract: every field is a plain value; the simulator reads it, never changes it. Times are
/// whole microseconds (``VirtualDuration``); fields named `…Seconds` in scenario files map onto
/// them. Rule ids in the field comments are explained in the `IOSBackgroundRules` article.
public struct OSProfile: Sendable, Equatable {
    /// Short name used in scenario files: `ios6`, `ios12`, `ios17`, `ios26`.
    public var name: String
    /// A human label, e.g. "iOS 17".
    public var displayName: String

    // MARK: Background-task budget (A4)

    /// The app-wide budget after moving from the foreground to the background (A4.1-A4.3).
    public var budget: VirtualDuration
    /// The budget when the app was launched or resumed in the background (A4.2).
    public var backgroundLaunchBudget: VirtualDuration
    /// How long before the deadline the expiration handlers run (A3.7, UNCERTAIN; default 4 s).
    public var expiryLead: VirtualDuration
    /// The watchdog on the expiration handlers' total running time (A3.5, UNCERTAIN: "a few
    /// seconds"); past it the app is killed with 0x8badf00d.
    public var expirationHandlerWatchdog: VirtualDuration
    /// Whether the budget starts afresh on every return to the foreground (A4.7, UNCERTAIN).
    public var budgetResetsOnForeground: Bool
    /// The order in which the handlers of outstanding tasks are called (A3.5, UNCERTAIN).
    public var expirationHandlerOrder: ExpirationHandlerOrder

    // MARK: Identifiers, limits and console (A2, A5, A6)

    /// The most tasks a process may hold at once before it is killed with 0xbada5e47 (A2.6,
    /// iOS 11+); nil means no limit.
    public var taskLimit: Int?
    /// Which console wording `endBackgroundTask` uses for an unknown id (A5.2).
    public var consoleWording: ConsoleWording
    /// Whether ending `.invalid` logs the unknown-id message (A5.3, UNCERTAIN).
    public var endingInvalidLogs: Bool
    /// After how long a held task logs the "created over 30 seconds ago" warning (A6.1, iOS
    /// 13.4+); nil means the profile has no such warning.
    public var longHeldTaskWarning: VirtualDuration?
    /// Whether that warning also fires while the app is in the foreground (A6.2, UNCERTAIN).
    public var longHeldTaskWarningInForeground: Bool
    /// How long a background task or a launched BGTask may be held in the background while no
    /// declared work is in flight before `no-idle-task` reports it. Not an iOS rule but a
    /// judgement: an idle hold only burns the app's budget (A4.5) and, past 30 s, draws the
    /// A6.1 warning; 10 s leaves room for the short gaps of real code (a save after the upload,
    /// a hop to the main queue). Scenario key `idleTaskLimitSeconds`.
    public var idleTaskLimit: VirtualDuration = .seconds(10)

    // MARK: Lifecycle (A10, B)

    /// How long `applicationDidEnterBackground` may run before the app is killed (A10.1).
    public var didEnterBackgroundLimit: VirtualDuration
    /// How long after the last task ends in the background the app is suspended (B2.3 "shortly
    /// afterward"; the reference gives no number, so this is a parameter; default 1 s).
    public var suspensionDelay: VirtualDuration
    /// Whether a jetsam (memory-pressure kill) of an app running (not suspended) in the
    /// background calls `applicationWillTerminate` first. Default false: jetsam kills "with no
    /// callback" (B3.4); B3.3's "may be called" when the system terminates a running app is kept
    /// reachable here. A suspended app never gets it (B3.1). Scenario key `willTerminateOnJetsam`.
    public var willTerminateOnJetsam = false
    /// Whether a force-quit from the app switcher of a *running* app (in the switcher, or running
    /// in the background with a task) calls `applicationWillTerminate` first. Default true:
    /// observed on current systems, where swiping a running app away "triggers programmatic
    /// termination" (B3.3); a suspended app gets nothing (B3.2). Scenario key
    /// `willTerminateOnForceQuit`.
    public var willTerminateOnForceQuit = true
    /// How long `applicationWillTerminate` may run before the watchdog kills the app
    /// (A10.2: "approximately five seconds"; 0x8badf00d). Scenario key `willTerminateLimitSeconds`.
    public var willTerminateLimit: VirtualDuration = .seconds(5)
    /// The chance that a jetsam of a running background app is preceded by
    /// `didReceiveMemoryWarning` (B3.4). Warnings are "best-effort": when memory demand rises
    /// fast the system jettisons without one, so this is a parameter (UNCERTAIN; default 0.5).
    /// A suspended app runs no code and gets none. Scenario key
    /// `memoryWarningBeforeJetsamProbability`.
    public var memoryWarningBeforeJetsamProbability = 0.5
    /// How long after the memory warning the jetsam comes (UNCERTAIN; default 2 s). Scenario key
    /// `memoryWarningLeadSeconds`.
    public var memoryWarningLead: VirtualDuration = .seconds(2)
    /// How long after the device locks files with ``FileProtection/complete`` become unreadable
    /// and unwritable: the class key is discarded "10 seconds" after the lock (Apple Platform
    /// Security guide). Scenario key `completeProtectionLockDelaySeconds`.
    public var completeProtectionLockDelay: VirtualDuration = .seconds(10)
    /// Whether the system kills an app that is suspended while it holds a lock on a file in a
    /// shared container (0xdead10cc: "held on to a file lock or SQLite database lock during
    /// suspension"). Default true; enforcement has varied (stricter from iOS 14, DTS forum
    /// thread 655225) and some SQLite files are exempt, so it is a parameter. Scenario key
    /// `killsOnSharedFileLockAtSuspension`.
    public var killsOnSharedFileLockAtSuspension = true
    /// How long launching (`didFinishLaunching`) may keep the main thread before the launch
    /// watchdog kills the app with 0x8badf00d (A10.3: the archived guide says under 5 s, a modern
    /// crash report says "20.00 seconds"; UNCERTAIN, default 20 s). Scenario key
    /// `launchWatchdogLimitSeconds`.
    public var launchWatchdogLimit: VirtualDuration = .seconds(20)
    /// The chance that a BGTask launch takes every other eligible request with it, in one batch
    /// that shares the app's background time (C4.3, OBSERVED/secondary). Default 0: one task per
    /// launch, as the scenarios were written; a scenario turns batches on. Scenario key
    /// `batchLaunchProbability`.
    public var batchLaunchProbability = 0.0
    /// The chance that an app update (the `appUpdate` action) drops the app's pending BGTask
    /// requests (C3.7: one developer's observation; UNCERTAIN, default 1). Scenario key
    /// `appUpdateDropsPendingRequestsProbability`.
    public var appUpdateDropsPendingRequestsProbability = 1.0
    /// Whether Low Power Mode holds back refresh and processing launches (Apple: Low Power Mode
    /// turns off Background App Refresh while it is on). Default true. Scenario key
    /// `lowPowerModeHoldsBackgroundTasks`.
    public var lowPowerModeHoldsBackgroundTasks = true
    /// How close to the end of `applicationDidEnterBackground`'s allowance a begin counts as
    /// "at the very end" (A3.4; UNCERTAIN, default 1 s of the 5 s). Scenario key
    /// `lateBeginWindowSeconds`.
    public var lateBeginWindow: VirtualDuration = .seconds(1)
    /// The chance that such a late begin loses the race for its assertion, so the system calls
    /// its expiration handler right after `didEnterBackground` returns (A3.4: the assertion is
    /// requested asynchronously; UNCERTAIN, default 0.5; our probes saw begins made earlier in
    /// the callback win every time). Scenario key `lateBeginLosesRaceProbability`.
    public var lateBeginLosesRaceProbability = 0.5
    /// Whether a force-quit stops the system from launching the app for BGTaskScheduler tasks
    /// (B4.2, OBSERVED).
    public var forceQuitBlocksBackgroundLaunch: Bool
    /// Whether the app uses scenes (iOS 13+, B1.3).
    public var supportsScenes: Bool

    // MARK: BGTaskScheduler (C)

    /// Whether BGTaskScheduler exists (iOS 13+).
    public var hasTaskScheduler: Bool
    /// Whether BGContinuedProcessingTask exists (iOS 26+, C6).
    public var hasContinuedProcessing: Bool
    /// Runtime given to a `BGAppRefreshTask` (C4.1: "up to 30 seconds").
    public var refreshRuntime: VirtualDuration
    /// Runtime given to a `BGProcessingTask` (C4.2: "minutes"; UNCERTAIN, default 5 min).
    public var processingRuntime: VirtualDuration
    /// How long before a BGTask's time ends its expiration handler runs (C4.4 "shortly before";
    /// UNCERTAIN, default 4 s as for A3.7).
    public var taskExpiryLead: VirtualDuration
    /// Pending-request limits (C2.2).
    public var maxPendingRefreshRequests: Int
    public var maxPendingProcessingRequests: Int
    /// A continued-processing task with no progress for this long is expired (C6.7, UNCERTAIN;
    /// default 30 s).
    public var continuedProcessingStallLimit: VirtualDuration
    /// Whether a queued continued-processing request (C6.4 `.queue`) outlives the process that
    /// submitted it when that process dies other than by a force-quit (jetsam, a crash, a
    /// reboot), to start later in a new process. UNCERTAIN: Apple documents only that closing
    /// the app in the app switcher cancels queued requests (C6.4, C6.9); the task runs "on behalf
    /// of the currently foregrounded app" (C6.1) and apps register its identifier just before
    /// submitting (C6.2), so a new process has no handler for it, and starting it there would
    /// crash an app written as Apple's article shows. Default false: queued requests die with
    /// their process. Scenario key `continuedProcessingQueueOutlivesProcess`.
    public var continuedProcessingQueueOutlivesProcess = false

    // MARK: Other background modes (D)

    /// Whether the app can get silent (content-available) pushes through
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)` (D2; iOS 7+, so
    /// false for `ios6`). Scenario key `silentPushEnabled`.
    public var silentPushEnabled = false
    /// How long the app has to call a silent push's fetch completion handler (D2: "up to 30
    /// seconds of wall-clock time … or your app will be terminated"). Scenario key
    /// `silentPushRuntimeSeconds`.
    public var silentPushRuntime: VirtualDuration = .seconds(30)
    /// The shortest gap between two silent pushes the system delivers; one that comes sooner is
    /// throttled (dropped). D2: more than about three an hour trigger rate limiting, and the real
    /// budget depends on conditions (UNCERTAIN; default 1200 s, three an hour). Scenario key
    /// `silentPushMinimumIntervalSeconds`.
    public var silentPushMinimumInterval: VirtualDuration = .seconds(1_200)
    /// Whether an active audio or location session (``BackgroundModeAssertion``) keeps the app
    /// running with no background-task expiry (D5, A4.8: DTS, forum thread 764762). Default
    /// true; false makes such apps suspend like any other. Scenario key
    /// `backgroundModeAssertionsHoldApp`.
    public var backgroundModeAssertionsHoldApp = true
    /// Whether background fetch (`performFetchWithCompletionHandler`) exists (D3: iOS 7-12 here;
    /// deprecated in favour of BGAppRefreshTask from iOS 13). Scenario key `backgroundFetchAvailable`.
    public var backgroundFetchAvailable = false
    /// How long a background fetch may run before its completion handler must have been called
    /// (D3: about 30 s, observed). Scenario key `backgroundFetchRuntimeSeconds`.
    public var backgroundFetchRuntime: VirtualDuration = .seconds(30)
    /// How long the app has, after the system woke or relaunched it for a background
    /// `URLSession`'s events, to call the completion handler of
    /// `handleEventsForBackgroundURLSession` (D1: Apple documents no number; UNCERTAIN, default
    /// 30 s like D2 and D3). Scenario key `backgroundSessionEventsRuntimeSeconds`.
    public var backgroundSessionEventsRuntime: VirtualDuration = .seconds(30)
    /// Whether an app still in the background when that time runs out is killed (UNCERTAIN:
    /// secondary sources say so; default true). Off, it is only released to be suspended; the
    /// invariant reports it either way. Scenario key `backgroundSessionExpiryTerminates`.
    public var backgroundSessionExpiryTerminates = true
    /// The chance that a background transfer fails (a server error, a connection that fails for
    /// good): not an iOS rule, the world's failures. Default 0.1. Scenario key
    /// `backgroundTransferFailureProbability`.
    public var backgroundTransferFailureProbability = 0.1
    /// How long an app woken for an external accessory's or a Bluetooth device's data runs
    /// before it is suspended (D4: "around 10 seconds to process the data"; a background task
    /// gets it more). Scenario key `accessoryWakeWindowSeconds`.
    public var accessoryWakeWindow: VirtualDuration = .seconds(10)

    // MARK: The device, the debugger and the submission details (A7.3, A8.5, C2.5, C2.6, C5.3, C6.5)

    /// Whether Xcode's debugger is attached to the app. Default false. True disables every
    /// watchdog (A7.3: "watchdogs will be disabled" while debugging; no background-task
    /// terminations under the debugger): a kill the watchdog would make becomes a
    /// `process.watchdogSuppressed` event and the app runs on. This is the trap of testing
    /// background code from Xcode: a leaked task that kills the app in the field survives every
    /// debugging session. Scenario key `debuggerAttached`.
    public var debuggerAttached = false
    /// How far `backgroundTimeRemaining` may stray from the time really left: each read in the
    /// background returns the time left plus an offset drawn from -error...+error (never below
    /// 0). A8.5: it is "an estimate [that] can change at any time"; how wrong it can be is
    /// UNCERTAIN. Default 0 (exact; no draw). Scenario key `backgroundTimeRemainingErrorSeconds`.
    public var backgroundTimeRemainingError: VirtualDuration = .zero
    /// The chance that `submit` returns success while the system drops the request, so it never
    /// becomes pending (C2.5: one developer saw it, with Developer Mode on or under rate
    /// limiting; UNCERTAIN). Default 0 (no draw). Scenario key `submitDropProbability`.
    public var submitDropProbability = 0.0
    /// How long the iOS 27 asynchronous `submit(_:completionHandler:)` takes to report, on a
    /// background queue (C2.6: errors arrive "on an arbitrary queue after an arbitrary amount
    /// of delay"; beta header, UNCERTAIN; default 1 s). The request is validated and becomes
    /// pending when the completion handler is called. Scenario key `asynchronousSubmitDelaySeconds`.
    public var asynchronousSubmitDelay: VirtualDuration = .seconds(1)
    /// Whether the app runs in Xcode's Simulator instead of on a device. Default false. The
    /// Simulator "doesn't support background processing": every `submit` fails with
    /// `unavailable` (C2.3), so the debug launch and expiry functions find nothing to act on
    /// (C5.3: "The debug functions work only on devices"). Scenario key `runsInSimulator`.
    public var runsInSimulator = false
    /// Whether the device supports the GPU for continued-processing tasks in the background
    /// (`BGTaskScheduler.supportedResources` contains `.gpu`; C6.5: "not all devices support
    /// background GPU use"). Default true. A request with `requiresBackgroundGPU` is rejected with
    /// `notPermitted` when this is false or the app lacks the entitlement. Scenario key
    /// `supportsBackgroundGPU`.
    public var supportsBackgroundGPU = true

    /// The order of expiration-handler calls (A3.5 leaves it open).
    public enum ExpirationHandlerOrder: String, Sendable, CaseIterable {
        /// Oldest task first.
        case beginOrder
        /// Newest task first.
        case reverseBeginOrder
        /// An order drawn from the run's choices, so campaigns explore every order.
        case drawn
    }

    /// The console message family for ending an unknown task (A5.2).
    public enum ConsoleWording: String, Sendable, CaseIterable {
        /// iOS 13+: `Can't end BackgroundTask: no background task exists with identifier 3 (0x3), …`
        case modern
        /// About 2016-2017: `Can't endBackgroundTask: no background task exists with identifier 6c, …`
        case legacy
    }
}
