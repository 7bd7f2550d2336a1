import DeterministicSimulation

/// The handler of an external accessory's or a Bluetooth LE device's data (D4), called on the
/// main queue with the background mode that woke the app (`bluetooth-central` or
/// `external-accessory`).
public typealias AccessoryEventHandler = @Sendable (String) -> Void

extension WorkloadContext {
    /// Registers what the app does when an accessory or a Bluetooth device sends it data (a
    /// `CBCentralManagerDelegate` or `EAAccessory` callback), for a workload that declares the
    /// `bluetooth-central` or `external-accessory` background mode (D4).
    ///
    /// ```swift
    /// context.onAccessoryEvent { _ in
    ///     let token = BackgroundTaskToken(name: "heart-rate", host: context.host)  // more than 10 s
    ///     store(reading) { token.invalidate() }
    /// }
    /// ```
    ///
    /// Contract: the handler runs on the main queue, after `didFinishLaunching` when the event
    /// launched the process; the app then runs for ``OSProfile/accessoryWakeWindow`` (about
    /// 10 s) and is suspended unless something else (a background task) holds it.
    public func onAccessoryEvent(_ handler: @escaping AccessoryEventHandler) {
        application.device.scheduler.schedulingPoint()
        application.core.accessoryHandler = handler
    }
}

extension SimulatedDevice {
    /// The accessory background mode the workload declares (D4), if any.
    var accessoryMode: String? {
        workload.backgroundModes.first { $0 == "bluetooth-central" || $0 == "external-accessory" }
    }

    /// Whether the workload declares an accessory background mode (D4).
    var hasAccessoryMode: Bool { accessoryMode != nil }

    /// An accessory or Bluetooth device sends the app data (the `accessoryWake` action, D4).
    ///
    /// ```swift
    /// device.wakeForAccessory()
    /// ```
    ///
    /// Contract: nothing happens to an app without the `bluetooth-central` or
    /// `external-accessory` background mode (iOS does not deliver the event in the background);
    /// a force-quit app is not launched (B4.2, `forceQuitBlocked`). Otherwise the app is woken
    /// (or launched into the background, B4.1), its handler runs on the main queue, and it is
    /// held running for ``OSProfile/accessoryWakeWindow`` ("around 10 seconds to process the
    /// data"); then it is suspended once nothing else holds it (a `beginBackgroundTask` gets it
    /// more time).
    func wakeForAccessory() {
        guard let mode = accessoryMode else { return }
        guard liveApp != nil || !blockedByForceQuit else {
            emit(.accessoryWake(mode: mode, phase: "forceQuitBlocked"))
            return
        }
        emit(.accessoryWake(mode: mode, phase: "wake"))
        guard let app = wakeOrLaunchInBackground() else { return }
        app.core.pushesAwaitingCompletion += 1  // held awake for the window, like a push (D2)
        app.cancelSuspension()
        _ = scheduler.asyncAfter(profile.accessoryWakeWindow, on: systemQueue) { [unowned self] in
            guard app.isAlive else { return }
            app.core.pushesAwaitingCompletion -= 1
            emit(.accessoryWake(mode: mode, phase: "end"))
            checkHeldWork(after: "the accessory wake's \(profile.accessoryWakeWindow) ended")
            app.evaluateSuspension()
        }
        app.mainQueueImpl.async {
            guard app.isAlive, let handler = app.core.accessoryHandler else { return }
            handler(mode)
        }
    }
}
