import BackgroundTaskKit
import DeterministicSimulation

/// A UIKit background task the simulated process holds (A1-A3).
struct OpenBackgroundTask {
    let id: Int
    let name: String
    let handler: ExpirationHandler?
    let createdAt: VirtualTime
    /// The 30 s warning (A6.1) has been logged for it.
    var warned = false
    /// Its expiration handler has been called: it is never called again (A3.8), even in a later
    /// background stay or on an early expiry.
    var handlerCalled = false
}

/// One stretch of background execution with its app-wide budget (A4.5): from entering the
/// background (or a background launch) until the app returns to the foreground, is suspended or
/// dies.
struct BackgroundSession {
    let start: VirtualTime
    var deadline: VirtualTime
    /// The expiration handlers have been called in this session (A3.8: not again).
    var expired = false
    var calloutJob: JobID?
    var deadlineJob: JobID?
}
