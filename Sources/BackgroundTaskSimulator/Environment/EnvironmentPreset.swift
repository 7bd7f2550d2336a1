/// A named starting point for a scenario's environment (`"environment": {"preset": …}`); the
/// scenario's own fields then override it.
///
/// ```swift
/// let storm = EnvironmentPreset.faultStorm.configuration   // every fault high at once
/// ```
///
/// Contract: `standard` is ``EnvironmentConfig/init(weights:gaps:work:faults:networkInitiallyAvailable:launchInBackgroundFirst:externalPowerInitiallyConnected:concurrency:)``
/// with its defaults. `fault-storm` raises every fault at once: the system refuses 30% of
/// begins (A2.1) and is busy half the time (C6.4), and early expiry (A3.3), memory-pressure and
/// force-quit kills (B3.2, B3.4), Background App Refresh turned off (C2.3), network loss, BGTask
/// expiry, scene disconnection and user-cancelled continued tasks come several times more often
/// than in `standard`, and the device reboots now and then (B3.1; never in `standard`). A
/// correct app survives it: every fault is one the system may cause, so nothing it does is a
/// bug of the app, and what the app does about it must still be right.
public enum EnvironmentPreset: String, Sendable, CaseIterable {
    case standard
    case faultStorm = "fault-storm"

    /// The environment the preset stands for.
    public var configuration: EnvironmentConfig {
        var config = EnvironmentConfig()
        guard self == .faultStorm else { return config }
        config.faults.beginFailureProbability = 0.3
        config.faults.systemBusyProbability = 0.5
        let storm: [(EnvironmentAction, Double)] = [
            (.earlyExpiry, 1), (.memoryPressureKill, 0.4), (.forceQuit, 0.3), (.backgroundRefreshOff, 0.3),
            (.networkDown, 0.6), (.expireBackgroundTask, 0.6), (.sceneDisconnect, 0.3),
            (.userCancelsContinuedTask, 0.3), (.reboot, 0.1),
        ]
        for (action, weight) in storm { config.weights[action] = weight }
        return config
    }
}
