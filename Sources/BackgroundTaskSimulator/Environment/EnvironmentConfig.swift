public import DeterministicSimulation

/// How a run drives the app: which user actions and system events happen, how often relative to
/// each other, how long the gaps between them are, how long client work takes, and fault rates.
///
/// ```swift
/// var environment = EnvironmentConfig()
/// environment.weights[.memoryPressureKill] = 0      // never jetsam in this scenario
/// environment.gaps = .milliseconds(5)...(.seconds(120))
/// ```
///
/// Contract: weights are relative (0 disables an action); an action is only drawn when it is
/// possible in the app's current state (``EnvironmentDriver`` decides which are).
public struct EnvironmentConfig: Sendable, Equatable {
    /// Relative weights of the actions, by action.
    public var weights: ActionWeights
    /// The range the gap before each action is drawn from (log-uniform by decade).
    public var gaps: ClosedRange<VirtualDuration>
    /// How long one piece of client work takes (``WorkloadContext/drawWorkDuration()``).
    public var work: WorkTiming
    /// Fault rates.
    public var faults: Faults
    /// Whether the network is up when the run starts.
    public var networkInitiallyAvailable: Bool
    /// Whether the first process is launched into the background (B2.2) instead of by the user.
    public var launchInBackgroundFirst: Bool
    /// Whether the device is charging when the run starts (C3.3).
    public var externalPowerInitiallyConnected: Bool
    /// How the app's threads interleave (on by default; ``ConcurrencySettings/off`` for one thread).
    public var concurrency: ConcurrencySettings

    public init(
        weights: ActionWeights = .standard,
        gaps: ClosedRange<VirtualDuration> = .milliseconds(10)...(.seconds(90)),
        work: WorkTiming = WorkTiming(),
        faults: Faults = Faults(),
        networkInitiallyAvailable: Bool = true,
        launchInBackgroundFirst: Bool = false,
        externalPowerInitiallyConnected: Bool = false,
        concurrency: ConcurrencySettings = ConcurrencySettings()
    ) {
        self.weights = weights
        self.gaps = gaps
        self.work = work
        self.faults = faults
        self.networkInitiallyAvailable = networkInitiallyAvailable
        self.launchInBackgroundFirst = launchInBackgroundFirst
        self.externalPowerInitiallyConnected = externalPowerInitiallyConnected
        self.concurrency = concurrency
    }

    /// How long client work takes.
    public struct WorkTiming: Sendable, Equatable {
        public var minimum: VirtualDuration
        public var maximum: VirtualDuration
        public init(minimum: VirtualDuration = .milliseconds(100), maximum: VirtualDuration = .seconds(40)) {
            self.minimum = minimum
            self.maximum = maximum
        }
    }

    /// Probabilities of faults the system injects.
    public struct Faults: Sendable, Equatable {
        /// `beginBackgroundTask` returns `.invalid` (A2.1, A2.2: rare on modern systems).
        public var beginFailureProbability: Double
        /// The system is too busy to start a continued-processing task now (C6.4).
        public var systemBusyProbability: Double
        public init(beginFailureProbability: Double = 0, systemBusyProbability: Double = 0.1) {
            self.beginFailureProbability = beginFailureProbability
            self.systemBusyProbability = systemBusyProbability
        }
    }
}

/// Relative weights of ``EnvironmentAction``s, stored in the actions' declaration order so that
/// iterating them is deterministic.
public struct ActionWeights: Sendable, Equatable {
    private var values: [Double]

    /// All actions at weight 0.
    public init() { values = Array(repeating: 0, count: EnvironmentAction.allCases.count) }

    /// The weight of `action`.
    public subscript(action: EnvironmentAction) -> Double {
        get { values[action.ordinal] }
        set { values[action.ordinal] = max(0, newValue) }
    }

    /// A mix that reaches every state and transition: user actions dominate, system faults are
    /// rarer but frequent enough to appear in a few hundred runs.
    public static let standard: ActionWeights = {
        var weights = ActionWeights()
        let table: [(EnvironmentAction, Double)] = [
            (.launch, 1), (.open, 1), (.home, 1), (.lock, 0.5), (.appSwitcher, 0.3), (.forceQuit, 0.08),
            (.incomingCall, 0.2), (.endCall, 1), (.memoryPressureKill, 0.05), (.earlyExpiry, 0.15),
            (.backgroundRefreshOff, 0.02), (.backgroundRefreshOn, 0.5), (.networkDown, 0.1), (.networkUp, 0.5),
            (.launchBackgroundTask, 1), (.expireBackgroundTask, 0.1), (.sceneDisconnect, 0.03),
            (.userCancelsContinuedTask, 0.05), (.powerConnected, 0.3), (.powerDisconnected, 0.3),
            (.silentPush, 0.3),  // only for apps with the remote-notification background mode (D2)
            (.backgroundFetch, 1),  // only when due, on iOS 7-12, for apps with the fetch mode (D3)
        ]
        for (action, weight) in table { weights[action] = weight }
        return weights
    }()
}
