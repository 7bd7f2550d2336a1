/// What code can observe of the app's state: `UIApplication.State` (reference B1.2).
///
/// There is no value for "suspended" or "not running": code never runs in those states.
public enum ApplicationState: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// In the foreground and receiving events.
    case active = 0
    /// In the foreground but not receiving events (briefly, during transitions and interruptions).
    case inactive = 1
    /// Running code in the background.
    case background = 2

    public var description: String {
        switch self {
        case .active: "active"
        case .inactive: "inactive"
        case .background: "background"
        }
    }
}

/// A lifecycle notification, in the app-delegate model (reference B2).
///
/// Hosts deliver them on the main queue in the documented order: launching to the foreground
/// gives `didFinishLaunching`, `didBecomeActive`; going home gives `willResignActive`,
/// `didEnterBackground`; coming back gives `willEnterForeground`, `didBecomeActive`;
/// `willTerminate` comes only when the app is terminated while running (not suspended, B3.3);
/// `didReceiveMemoryWarning` when the system runs low on memory while the app runs, often shortly
/// before it reclaims memory by terminating apps (`applicationDidReceiveMemoryWarning`, B3.4).
public enum LifecycleEvent: String, Sendable, CaseIterable, CustomStringConvertible {
    case didFinishLaunching
    case didBecomeActive
    case willResignActive
    case didEnterBackground
    case willEnterForeground
    case willTerminate
    /// `applicationDidReceiveMemoryWarning(_:)` / `didReceiveMemoryWarningNotification`.
    case didReceiveMemoryWarning

    public var description: String { rawValue }
}
