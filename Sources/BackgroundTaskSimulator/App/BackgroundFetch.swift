import DeterministicSimulation

/// `application(_:performFetchWithCompletionHandler:)`: called on the main queue for each
/// background fetch (D3, iOS 7-12) with the completion handler to call once, within about 30 s.
public typealias BackgroundFetchHandler = @Sendable (@escaping FetchCompletionHandler) -> Void

extension WorkloadContext {
    /// Asks for background fetches at most every `minimumInterval`
    /// (`setMinimumBackgroundFetchInterval(_:)`) and registers the process's fetch handler, as an
    /// app delegate implements `application(_:performFetchWithCompletionHandler:)` (D3). Only on
    /// iOS 7-12 profiles, for apps that declare the `fetch` background mode and no BGTaskScheduler
    /// identifiers (C2.7).
    ///
    /// ```swift
    /// context.onBackgroundFetch(minimumInterval: .seconds(900)) { completionHandler in
    ///     context.network.request("forecast", timeout: .seconds(20)) { result in
    ///         completionHandler(result.isSuccess ? .newData : .failed)
    ///     }
    /// }
    /// ```
    ///
    /// Contract: the handler runs on the main queue (after `didFinishLaunching` when the fetch
    /// launched the process); the interval lasts for the device, the handler for the process.
    public func onBackgroundFetch(minimumInterval: Duration, _ handler: @escaping BackgroundFetchHandler) {
        let device = application.device
        device.scheduler.schedulingPoint()
        application.core.fetchHandler = handler
        device.fetchService.setMinimumInterval(VirtualDuration(minimumInterval))
    }
}
