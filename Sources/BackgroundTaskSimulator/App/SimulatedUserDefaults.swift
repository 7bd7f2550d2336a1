/// The app's `UserDefaults`, as far as workloads need them: boolean flags kept on the device's
/// disk, so they survive every termination, reboot and App Store update, as real defaults do.
///
/// ```swift
/// let defaults = context.userDefaults
/// if !defaults.bool(forKey: "onboardingDone") { showOnboarding() }
/// defaults.set(true, forKey: "onboardingDone")
/// ```
///
/// Contract: a flag set in one process reads the same in every later process of the run; the
/// run starts with every flag false (a fresh install). Nothing is recorded in the trace.
public struct SimulatedUserDefaults: @unchecked Sendable {
    // @unchecked: holds a ``DeviceReference``; confined to the run's thread like the device.
    private let deviceReference: DeviceReference

    init(device: SimulatedDevice) { deviceReference = DeviceReference(device, owner: "SimulatedUserDefaults") }

    /// `UserDefaults.bool(forKey:)`: false when never set.
    public func bool(forKey key: String) -> Bool {
        deviceReference.device.userDefaultsFlags.contains(key)
    }

    /// `UserDefaults.set(_:forKey:)` for a flag.
    public func set(_ value: Bool, forKey key: String) {
        let device = deviceReference.device
        device.userDefaultsFlags.removeAll { $0 == key }
        if value { device.userDefaultsFlags.append(key) }
    }
}

extension WorkloadContext {
    /// The app's `UserDefaults` (``SimulatedUserDefaults``): flags that outlive the process.
    public var userDefaults: SimulatedUserDefaults { SimulatedUserDefaults(device: application.device) }

    /// `ProcessInfo.processInfo.isLowPowerModeEnabled`: whether the user turned Low Power Mode on
    /// (the environment's `lowPowerModeOn`/`lowPowerModeOff`), which holds back refresh and
    /// processing launches (``OSProfile/lowPowerModeHoldsBackgroundTasks``).
    public var isLowPowerModeEnabled: Bool {
        application.device.scheduler.schedulingPoint()
        return application.device.isLowPowerModeEnabled
    }
}
