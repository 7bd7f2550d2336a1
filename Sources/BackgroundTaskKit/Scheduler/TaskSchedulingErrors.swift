/// Why ``BackgroundTaskScheduler`` refused to register a launch handler. On a device each of
/// these would have been a crash or a silent `false` (reference C1.2-C1.4).
///
/// ```swift
/// do {
///     try scheduler.register("com.example.refresh") { task in refresh(task) }
/// } catch {
///     logger.fault("\(error)")   // e.g. registered after launch finished
/// }
/// ```
public enum TaskRegistrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Launch has finished: "All launch handlers must be registered before application finishes
    /// launching" (C1.1, C1.4). Register in `application(_:didFinishLaunchingWithOptions:)`.
    case launchAlreadyFinished(identifier: String)
    /// This identifier already has a launch handler in this process (C1.3).
    case alreadyRegistered(identifier: String)
    /// The system refused: the identifier is not in `BGTaskSchedulerPermittedIdentifiers`, or
    /// the platform has no BGTaskScheduler (C1.2).
    case notPermitted(identifier: String)

    public var description: String {
        switch self {
        case .launchAlreadyFinished(let id):
            "cannot register \(id): launch handlers must be registered before the application finishes launching"
        case .alreadyRegistered(let id): "cannot register \(id): a launch handler is already registered for it"
        case .notPermitted(let id):
            "cannot register \(id): not in BGTaskSchedulerPermittedIdentifiers, or BGTaskScheduler is unavailable"
        }
    }
}

/// Why ``BackgroundTaskScheduler`` could not submit a request. Never fatal: the caller decides.
///
/// ```swift
/// do {
///     try scheduler.submit(TaskRequest(identifier: "com.example.refresh", kind: .appRefresh))
/// } catch .scheduler(.unavailable) {
///     settingsBanner.show("Turn on Background App Refresh to keep your feed fresh")
/// } catch {
///     logger.error("\(error)")
/// }
/// ```
public enum TaskSubmissionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No launch handler is registered for the identifier through this scheduler; on a device
    /// this submission would raise "No launch handler registered for task with identifier"
    /// (C2.4).
    case notRegistered(identifier: String)
    /// The system's `BGTaskScheduler.Error` (C2.3), for example ``TaskSchedulerError/unavailable``
    /// when Background App Refresh is off.
    case scheduler(TaskSchedulerError)

    public var description: String {
        switch self {
        case .notRegistered(let id): "cannot submit \(id): no launch handler is registered for it"
        case .scheduler(let error): "the system refused the request: \(error)"
        }
    }
}
