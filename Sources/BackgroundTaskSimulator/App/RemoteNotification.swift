/// What a silent push's fetch completion handler reports, as `UIBackgroundFetchResult` does.
public enum BackgroundFetchResult: String, Sendable, CaseIterable, CustomStringConvertible {
    /// New data was downloaded.
    case newData
    /// There was nothing new.
    case noData
    /// The download failed (no network, a timeout, a server error).
    case failed

    public var description: String { rawValue }
}

/// A silent (content-available) push the app received (D2), numbered from 1 in each run.
public struct RemoteNotification: Sendable, Equatable {
    /// The push's number in the run, as `push.receive` events give it.
    public let number: Int
}

/// The fetch completion handler of one silent push: call it exactly once, within the push's
/// runtime (30 s by default), on every path.
public typealias FetchCompletionHandler = @Sendable (BackgroundFetchResult) -> Void

/// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`: called on the main
/// queue for each silent push the app receives.
public typealias RemoteNotificationHandler = @Sendable (RemoteNotification, @escaping FetchCompletionHandler) -> Void

extension WorkloadContext {
    /// Registers the process's silent-push handler, as an app delegate implements
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)` (D2). Only apps
    /// whose ``WorkloadInfo/backgroundModes`` include `remote-notification` get pushes.
    ///
    /// ```swift
    /// context.onRemoteNotification { push, completionHandler in
    ///     context.network.request("fetch-mail", timeout: .seconds(20)) { result in
    ///         switch result {
    ///         case .success: completionHandler(.newData)
    ///         case .failure: completionHandler(.failed)
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// Contract: the handler runs on the main queue, after `didFinishLaunching` when the push
    /// launched the process; a later registration replaces an earlier one; the registration
    /// lasts for the process (a relaunched process registers again, from `didFinishLaunching`).
    /// A push that finds no handler is recorded as `noHandler` and needs no completion.
    public func onRemoteNotification(_ handler: @escaping RemoteNotificationHandler) {
        application.device.scheduler.schedulingPoint()
        application.core.pushHandler = handler
    }
}
