import BackgroundTaskKit

// Positions in declaration order, for the hot path's per-case tables (coverage counts, hashed
// names): a switch, not a search. `HotPathIndexTests` pins them to `allCases`.

extension AppProcessState {
    /// The state's position in declaration order (an array index; no search, no string compare).
    var ordinal: Int {
        switch self {
        case .notRunning: 0
        case .inactive: 1
        case .active: 2
        case .background: 3
        case .suspended: 4
        }
    }
}

extension LifecycleEvent {
    /// The event's position in declaration order (an array index; no search, no string compare).
    var ordinal: Int {
        switch self {
        case .didFinishLaunching: 0
        case .didBecomeActive: 1
        case .willResignActive: 2
        case .didEnterBackground: 3
        case .willEnterForeground: 4
        case .willTerminate: 5
        case .didReceiveMemoryWarning: 6
        }
    }
}

extension EnvironmentAction {
    /// Whether the action is a system fault rather than a user action.
    public var isFault: Bool {
        switch self {
        case .memoryPressureKill, .earlyExpiry, .backgroundRefreshOff, .networkDown, .expireBackgroundTask,
             .sceneDisconnect, .userCancelsContinuedTask, .forceQuit, .reboot:
            true
        default:
            false
        }
    }
}

extension EnvironmentAction {
    /// The action's position in declaration order: an array index for per-action tables. A
    /// switch, not a search of ``ordered`` (the hot path counts and weighs actions by it); a test
    /// pins it to `allCases`.
    var ordinal: Int {
        switch self {
        case .launch: 0
        case .open: 1
        case .home: 2
        case .lock: 3
        case .appSwitcher: 4
        case .forceQuit: 5
        case .incomingCall: 6
        case .endCall: 7
        case .memoryPressureKill: 8
        case .earlyExpiry: 9
        case .backgroundRefreshOff: 10
        case .backgroundRefreshOn: 11
        case .networkDown: 12
        case .networkUp: 13
        case .launchBackgroundTask: 14
        case .expireBackgroundTask: 15
        case .sceneDisconnect: 16
        case .userCancelsContinuedTask: 17
        case .powerConnected: 18
        case .powerDisconnected: 19
        case .reboot: 20
        case .viewDisappears: 21
        case .viewAppears: 22
        case .lowPowerModeOn: 23
        case .lowPowerModeOff: 24
        case .appUpdate: 25
        case .silentPush: 26
        case .backgroundFetch: 27
        case .accessoryWake: 28
        }
    }
}
