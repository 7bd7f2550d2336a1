import DeterministicSimulation

/// A main-thread callback that the system watches with a time limit (A3.5: the expiration
/// handlers together; A10.1: `applicationDidEnterBackground`; A10.2: `applicationWillTerminate`), and the watchdog job armed once
/// the main thread blocks inside it.
///
/// ```swift
/// app.watchMainThread(.didEnterBackground, limit: profile.didEnterBackgroundLimit)
/// deliver(.didEnterBackground)
/// app.endMainThreadWatch()
/// ```
struct MainThreadWatch {
    /// Which callback is watched.
    enum Callback: Equatable {
        case expirationHandlers
        case didEnterBackground
        case willTerminate
        case launch
    }

    let callback: Callback
    let began: VirtualTime
    let limit: VirtualDuration
    /// The armed watchdog, once the main thread blocked in the callback.
    var job: JobID?

    init(callback: Callback, began: VirtualTime, limit: VirtualDuration) {
        self.callback = callback
        self.began = began
        self.limit = limit
    }

    /// The termination detail when the watchdog fires `elapsed` after the callback began.
    func killDetail(after elapsed: VirtualDuration) -> String {
        switch callback {
        case .expirationHandlers:
            "expiration handlers still running after \(elapsed), over the \(limit) limit (A3.5)"
        case .didEnterBackground:
            "applicationDidEnterBackground still running after \(elapsed), over the \(limit) limit (A10.1)"
        case .willTerminate:
            "applicationWillTerminate still running after \(elapsed), over the \(limit) limit (A10.2)"
        case .launch:
            "launch still running after \(elapsed), over the \(limit) limit (A10.3)"
        }
    }
}
