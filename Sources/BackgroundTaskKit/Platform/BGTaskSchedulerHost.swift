#if canImport(BackgroundTasks) && canImport(UIKit)
public import BackgroundTasks
public import Foundation
import Synchronization

/// `BGTaskScheduler.shared` as a ``TaskSchedulerHost``.
///
/// ```swift
/// let scheduler = BackgroundTaskScheduler(scheduler: BGTaskSchedulerHost(),
///                                         lifecycle: UIKitApplicationHost(application: application))
/// ```
///
/// Contract: a thin translation. A ``DispatchWorkQueue`` given to `register` is passed to the
/// system; any other queue gets the launch handler hopped onto it (the expiration handler then
/// runs on the system's background queue). Errors that are not `BGTaskScheduler.Error` are
/// reported as ``TaskSchedulerError/unavailable``.
public final class BGTaskSchedulerHost: TaskSchedulerHost, @unchecked Sendable {
    // @unchecked: BGTaskScheduler is documented thread-safe; we hold no mutable state.
    private let scheduler: BGTaskScheduler

    /// Wraps `scheduler`.
    public init(scheduler: BGTaskScheduler = .shared) { self.scheduler = scheduler }

    public func register(
        forTaskWithIdentifier identifier: String, using queue: (any WorkQueue)?,
        launchHandler: @escaping @Sendable (any ScheduledTask) -> Void
    ) -> Bool {
        let dispatchQueue = (queue as? DispatchWorkQueue)?.queue
        let hop = dispatchQueue == nil ? queue : nil
        return scheduler.register(forTaskWithIdentifier: identifier, using: dispatchQueue) { task in
            let wrapped = BGTaskAdapter(task)
            if let hop { hop.async { launchHandler(wrapped) } } else { launchHandler(wrapped) }
        }
    }

    public func submit(_ request: TaskRequest) throws(TaskSchedulerError) {
        do {
            try scheduler.submit(Self.makeRequest(request))
        } catch let error as BGTaskScheduler.Error {
            throw TaskSchedulerError(rawValue: error.code.rawValue) ?? .unavailable
        } catch {
            throw .unavailable
        }
    }

    public func cancel(taskRequestWithIdentifier identifier: String) {
        scheduler.cancel(taskRequestWithIdentifier: identifier)
    }

    public func cancelAllTaskRequests() { scheduler.cancelAllTaskRequests() }

    public func getPendingTaskRequests(completionHandler: @escaping @Sendable ([TaskRequest]) -> Void) {
        scheduler.getPendingTaskRequests { requests in
            completionHandler(requests.compactMap(Self.convert))
        }
    }

    public var now: Date { Date() }

    private static func makeRequest(_ request: TaskRequest) -> BGTaskRequest {
        let made: BGTaskRequest
        switch request.kind {
        case .appRefresh:
            made = BGAppRefreshTaskRequest(identifier: request.identifier)
        case .processing(let network, let power):
            let processing = BGProcessingTaskRequest(identifier: request.identifier)
            processing.requiresNetworkConnectivity = network
            processing.requiresExternalPower = power
            made = processing
        case .continuedProcessing(let title, let subtitle, let strategy):
            if #available(iOS 26.0, *) {
                let continued = BGContinuedProcessingTaskRequest(
                    identifier: request.identifier, title: title, subtitle: subtitle)
                continued.strategy = strategy == .fail ? .fail : .queue
                if request.requiresBackgroundGPU { continued.requiredResources = .gpu }  // C6.5
                made = continued
            } else {
                made = BGProcessingTaskRequest(identifier: request.identifier)
            }
        }
        made.earliestBeginDate = request.earliestBeginDate
        return made
    }

    private static func convert(_ request: BGTaskRequest) -> TaskRequest? {
        if let processing = request as? BGProcessingTaskRequest {
            return TaskRequest(identifier: request.identifier,
                               kind: .processing(requiresNetworkConnectivity: processing.requiresNetworkConnectivity,
                                                 requiresExternalPower: processing.requiresExternalPower),
                               earliestBeginDate: request.earliestBeginDate)
        }
        if #available(iOS 26.0, *), let continued = request as? BGContinuedProcessingTaskRequest {
            return TaskRequest(identifier: request.identifier,
                               kind: .continuedProcessing(title: continued.title, subtitle: continued.subtitle,
                                                          strategy: continued.strategy == .fail ? .fail : .queue),
                               earliestBeginDate: request.earliestBeginDate)
        }
        return TaskRequest(identifier: request.identifier, kind: .appRefresh, earliestBeginDate: request.earliestBeginDate)
    }
}

/// A `BGTask` as a ``ScheduledTask``.
final class BGTaskAdapter: ScheduledTask, @unchecked Sendable {
    // @unchecked: BGTask is thread-safe for these calls (C4.7 guards completion with a lock).
    private let task: BGTask

    init(_ task: BGTask) { self.task = task }

    var identifier: String { task.identifier }

    var kind: TaskRequest.Kind {
        if task is BGProcessingTask {
            return .processing(requiresNetworkConnectivity: false, requiresExternalPower: false)
        }
        if #available(iOS 26.0, *), let continued = task as? BGContinuedProcessingTask {
            return .continuedProcessing(title: continued.title, subtitle: continued.subtitle, strategy: .queue)
        }
        return .appRefresh
    }

    /// Our copy of the handler last set (BGTask's own property is not `@Sendable`-typed).
    private let handler = Mutex<ScheduledTaskExpirationHandler?>(nil)

    var expirationHandler: ScheduledTaskExpirationHandler? {
        get { handler.withCriticalSection { $0 } }
        set {
            handler.withCriticalSection { $0 = newValue }
            task.expirationHandler = newValue
        }
    }

    func setTaskCompleted(success: Bool) { task.setTaskCompleted(success: success) }

    func updateProgress(completedUnitCount: Int64, totalUnitCount: Int64) {
        if #available(iOS 26.0, *), let continued = task as? BGContinuedProcessingTask {
            continued.progress.totalUnitCount = totalUnitCount
            continued.progress.completedUnitCount = completedUnitCount
        }
    }
}
#endif
