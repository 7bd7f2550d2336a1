/// What MetricKit would report about the app's exits on this device: each termination counted
/// once, by reason, apart for exits from the foreground and from the background, with the field
/// names of `MXForegroundExitData` and `MXBackgroundExitData` (A7.2).
///
/// ```swift
/// let exits = device.exitMetrics.background
/// print(exits.backgroundTaskAssertionTimeout)   // tasks not ended in time (A7.1)
/// ```
///
/// Contract: ``SimulatedDevice`` counts every termination when it happens (the process's state
/// at that moment decides foreground or background: active and inactive are foreground, the
/// rest background). The mapping from ``TerminationReason``:
/// - a task still held at the end of the background time (A7.1) is a
///   `cumulativeBackgroundTaskAssertionTimeoutExitCount` ("the app fails to call
///   endBackgroundTask(_:) as soon as a background task is complete", A7.2);
/// - every other watchdog kill (launch, expiration handlers, `didEnterBackground`,
///   `willTerminate`, a BGTask, a push or fetch not completed) is `cumulativeAppWatchdogExitCount`;
/// - an uncaught exception and the 0xbada5e47 assertion limit (A2.6) are
///   `cumulativeAbnormalExitCount` (abort-like exits);
/// - jetsam is `cumulativeMemoryPressureExitCount`; 0xdead10cc is
///   `cumulativeSuspendedWithLockedFileExitCount`;
/// - a force-quit, a reboot and an app update are `cumulativeNormalAppExitCount` (the system
///   ended the process on purpose). MetricKit's documentation names no bucket for these; this is
///   the simulator's choice.
/// A watchdog kill suppressed under the debugger (A7.3) is not an exit and is not counted.
public struct AppExitMetrics: Sendable, Equatable {
    /// Exits of one kind of state (foreground or background), by MetricKit's buckets.
    public struct Counts: Sendable, Equatable {
        public var normalAppExit = 0
        public var appWatchdog = 0
        public var backgroundTaskAssertionTimeout = 0
        public var abnormal = 0
        public var memoryPressure = 0
        public var suspendedWithLockedFile = 0

        public init() {}

        /// Every exit counted.
        public var total: Int {
            normalAppExit + appWatchdog + backgroundTaskAssertionTimeout + abnormal + memoryPressure
                + suspendedWithLockedFile
        }
    }

    /// `MXForegroundExitData`: exits while the app was active or inactive.
    public var foreground = Counts()
    /// `MXBackgroundExitData`: exits while the app was in the background or suspended.
    public var background = Counts()

    public init() {}

    /// The watchdog detail of the end-of-background-time kill (A7.1): the one watchdog MetricKit
    /// counts apart.
    static let assertionTimeoutRule = "(A7.1)"

    /// Counts one termination of a process that was in `state`.
    mutating func count(_ reason: TerminationReason, in state: AppProcessState) {
        if state.isForeground {
            Self.add(reason, to: &foreground)
        } else {
            Self.add(reason, to: &background)
        }
    }

    private static func add(_ reason: TerminationReason, to counts: inout Counts) {
        switch reason {
        case .watchdog(let detail) where detail.hasSuffix(assertionTimeoutRule):
            counts.backgroundTaskAssertionTimeout += 1
        case .watchdog: counts.appWatchdog += 1
        case .exception, .taskLimit: counts.abnormal += 1
        case .memoryPressure: counts.memoryPressure += 1
        case .fileLockHeld: counts.suspendedWithLockedFile += 1
        case .forceQuit, .reboot, .appUpdate: counts.normalAppExit += 1
        }
    }
}
