/// A background mode that holds the app running while it is active (D5): playing audio, or
/// receiving continuous location updates. The raw values are the `UIBackgroundModes` entries.
public enum BackgroundMode: String, Sendable, CaseIterable {
    /// `audio`: audible content is playing (or recording).
    case audio
    /// `location`: continuous location updates are on.
    case location
}

/// An active audio or location session of the process (D5): while one is held the app is not
/// suspended in the background and its background tasks do not expire (A4.8: the budget clock is
/// stopped, as in the foreground, and starts afresh when the last one ends).
///
/// ```swift
/// guard let playback = context.beginBackgroundModeAssertion(.audio) else { return }  // no "audio" mode
/// player.onFinish { playback.end() }
/// ```
///
/// Contract: ``end()`` ends it once (later calls do nothing); each begin and end is an
/// `app.modeAssertion` event. It belongs to its process: a process that dies drops it.
public final class BackgroundModeAssertion: @unchecked Sendable {
    // @unchecked: one simulated thread of the run touches it at a time.
    /// The mode it holds.
    public let mode: BackgroundMode
    private let application: SimulatedApplication
    private var ended = false

    init(mode: BackgroundMode, application: SimulatedApplication) {
        self.mode = mode
        self.application = application
    }

    /// Whether it still holds the app.
    public var isHeld: Bool { !ended }

    /// Stops the audio or location session: the app may be suspended again, and the background
    /// budget starts if the app is in the background.
    public func end() {
        application.scheduler.schedulingPoint()
        guard !ended else { return }
        ended = true
        application.releaseModeAssertion(mode)
    }
}

extension SimulatedApplication {
    /// Starts holding the app for `mode` (D5).
    func holdModeAssertion(_ mode: BackgroundMode) {
        core.modeAssertions += 1
        device.emit(.modeAssertion(mode: mode.rawValue, held: true))
        cancelSuspension()
        if core.modeAssertions == 1 { endBackgroundSession() }  // A4.8: no expiry while held
    }

    /// Ends one hold for `mode`; the last one lets the budget start and the app be suspended.
    func releaseModeAssertion(_ mode: BackgroundMode) {
        guard isAlive else { return }
        core.modeAssertions -= 1
        device.emit(.modeAssertion(mode: mode.rawValue, held: false))
        guard core.modeAssertions == 0, state == .background else { return }
        startBackgroundSession()
        device.checkHeldWork(after: "the \(mode.rawValue) session ended")
        evaluateSuspension()
    }
}

extension WorkloadContext {
    /// Starts an audio or location session that holds the app running in the background (D5),
    /// or returns nil when the app does not declare `mode` in its ``WorkloadInfo/backgroundModes``
    /// (iOS suspends such an app all the same) or the profile's
    /// ``OSProfile/backgroundModeAssertionsHoldApp`` is off.
    ///
    /// ```swift
    /// let tracking = context.beginBackgroundModeAssertion(.location)
    /// defer { tracking?.end() }
    /// ```
    public func beginBackgroundModeAssertion(_ mode: BackgroundMode) -> BackgroundModeAssertion? {
        let device = application.device
        device.scheduler.schedulingPoint()
        guard application.isAlive, device.profile.backgroundModeAssertionsHoldApp,
            device.workload.backgroundModes.contains(mode.rawValue)
        else { return nil }
        application.holdModeAssertion(mode)
        return BackgroundModeAssertion(mode: mode, application: application)
    }
}
