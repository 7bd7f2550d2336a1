extension SimulatedDevice {
    /// The process a system event runs in the background: the live one, resumed in the
    /// background if it was suspended, or a new process launched into the background (B4.1).
    ///
    /// ```swift
    /// guard let app = device.wakeOrLaunchInBackground() else { return }
    /// ```
    ///
    /// Contract: used by BGTask launches (C4), silent pushes (D2) and background fetches (D3);
    /// a foreground or running background process is returned as it is.
    func wakeOrLaunchInBackground() -> SimulatedApplication? {
        if let live = liveApp {
            if live.state == .suspended { live.resumeInBackground() }
            return live
        }
        return launchProcess(inBackground: true)
    }
}
