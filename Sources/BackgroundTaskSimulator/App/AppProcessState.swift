public import BackgroundTaskKit

/// The five app states of the archived App Programming Guide (reference B1.1).
///
/// Code observes only ``ApplicationState`` (B1.2); the simulator also knows whether the process
/// exists and whether it is suspended.
public enum AppProcessState: String, Sendable, CaseIterable, CustomStringConvertible {
    case notRunning
    case inactive
    case active
    case background
    case suspended

    /// What `UIApplication.applicationState` reports in this state (`.background` while
    /// suspended or not running: no code runs then anyway).
    public var applicationState: ApplicationState {
        switch self {
        case .active: .active
        case .inactive: .inactive
        case .background, .suspended, .notRunning: .background
        }
    }

    /// Whether the app is on screen.
    public var isForeground: Bool { self == .active || self == .inactive }

    public var description: String { rawValue }
}

/// Why a process ended.
public enum TerminationReason: Sendable, Equatable, CustomStringConvertible {
    /// The watchdog killed the app (0x8badf00d, A7.1, A3.5, A10.1): `detail` says which watchdog.
    case watchdog(detail: String)
    /// More than the task limit of background-task assertions (0xbada5e47, A2.6).
    case taskLimit
    /// An uncaught exception, e.g. a late BGTaskScheduler registration (C1.3, C1.4, C2.4).
    case exception(name: String, reason: String)
    /// The user swiped the app away in the app switcher (B3.2). No callback.
    case forceQuit
    /// The system reclaimed memory (jetsam, B3.4).
    case memoryPressure
    /// The app was suspended while holding a lock on `file` in a shared container (0xdead10cc).
    case fileLockHeld(file: String)
    /// The device restarted. No callback (B3.1: "not called when the device reboots").
    case reboot
    /// The App Store updated the app (C3.7). No callback.
    case appUpdate

    /// Whether the client's code could have prevented this termination. Background tasks still
    /// open at a termination it could not prevent do not count as leaked (the definition of
    /// `every-begin-ended` in README.md).
    public var isPreventable: Bool {
        switch self {
        case .watchdog, .taskLimit, .exception, .fileLockHeld: true
        case .forceQuit, .memoryPressure, .reboot, .appUpdate: false
        }
    }

    /// The exception code of the crash report, if there is one.
    public var exceptionCode: String? {
        switch self {
        case .watchdog: "0x8badf00d"
        case .taskLimit: "0xbada5e47"
        case .fileLockHeld: "0xdead10cc"
        case .exception, .forceQuit, .memoryPressure, .reboot, .appUpdate: nil
        }
    }

    public var description: String {
        switch self {
        case .watchdog(let detail): "watchdog (0x8badf00d): \(detail)"
        case .taskLimit: "too many background task assertions (0xbada5e47)"
        case .exception(let name, let reason): "\(name): \(reason)"
        case .forceQuit: "force-quit by the user"
        case .memoryPressure: "terminated for memory pressure"
        case .fileLockHeld(let file): "suspended holding a lock on the shared file '\(file)' (0xdead10cc)"
        case .reboot: "the device rebooted"
        case .appUpdate: "the app was updated"
        }
    }
}
