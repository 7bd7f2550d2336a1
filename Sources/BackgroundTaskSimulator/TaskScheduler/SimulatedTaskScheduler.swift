public import BackgroundTaskKit
public import Foundation
public import DeterministicSimulation

/// One process's `BGTaskScheduler.shared`: the ``TaskSchedulerHost`` workloads use. It forwards
/// to the device's scheduler daemon, which outlives processes (pending requests survive a kill).
///
/// ```swift
/// _ = context.taskScheduler.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
///     task.setTaskCompleted(success: true)
/// }
/// ```
public final class SimulatedTaskScheduler: TaskSchedulerHost, @unchecked Sendable {
    // @unchecked: one simulated thread of the run touches it at a time.
    unowned let application: SimulatedApplication

    init(application: SimulatedApplication) { self.application = application }

    private var service: TaskSchedulerService { application.device.taskScheduler }

    /// A scheduling point before and after each BGTaskScheduler call: `body` runs between them.
    private func hostCall<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let scheduler = application.device.scheduler
        scheduler.schedulingPoint()
        defer { scheduler.schedulingPoint() }
        return try body()
    }

    public func register(
        forTaskWithIdentifier identifier: String, using queue: (any WorkQueue)?,
        launchHandler: @escaping @Sendable (any ScheduledTask) -> Void
    ) -> Bool {
        hostCall {
            service.register(app: application, identifier: identifier, queue: queue as? SimulatedWorkQueue,
                             handler: launchHandler)
        }
    }

    public func submit(_ request: TaskRequest) throws(TaskSchedulerError) {
        try hostCall { () throws(TaskSchedulerError) in try service.submit(request, from: application) }
    }

    public func cancel(taskRequestWithIdentifier identifier: String) {
        hostCall { service.cancel(identifier: identifier, from: application) }
    }

    public func cancelAllTaskRequests() {
        hostCall { service.cancelAll(from: application) }
    }

    /// Calls back on the process's background queue (C3.4: "may run on a background thread").
    public func getPendingTaskRequests(completionHandler: @escaping @Sendable ([TaskRequest]) -> Void) {
        let snapshot = hostCall { service.pending }
        application.backgroundQueue.async { completionHandler(snapshot) }
    }

    /// ``CoreLockHost``: no preemption while BackgroundTaskKit holds its lock and submits here
    /// (as ``SimulatedApplication/whileCoreHoldsLock(_:)``).
    public func whileCoreHoldsLock<Result>(_ body: () -> Result) -> Result {
        application.device.scheduler.withPreemptionDeferred(body)
    }

    public var now: Date { VirtualDate.date(for: application.device.now) }

    // MARK: Debugger commands (C5), as API

    /// `_simulateLaunchForTaskWithIdentifier:` (C5.1, C5.4).
    public func simulateLaunch(forTaskWithIdentifier identifier: String) {
        service.simulateLaunch(identifier: identifier)
    }

    /// `_simulateExpirationForTaskWithIdentifier:` (C5.2).
    public func simulateExpiration(forTaskWithIdentifier identifier: String) {
        service.simulateExpiration(identifier: identifier)
    }
}

/// Maps virtual time to `Date`s: virtual zero is 2026-01-01T00:00:00Z, a fixed epoch, so dates
/// in traces and requests are the same in every run and process.
public enum VirtualDate {
    /// Seconds from 2001-01-01 to 2026-01-01.
    static let epoch: Double = 788_918_400

    /// The date of a virtual instant.
    public static func date(for time: VirtualTime) -> Date {
        Date(timeIntervalSinceReferenceDate: epoch + Double(time.microseconds) / 1_000_000)
    }

    /// The first virtual instant not before `date`, rounded up to a microsecond, except that a
    /// date within a quarter microsecond above an instant is that instant: `Date` keeps about
    /// 0.12 µs of precision around 2026, so `date(for:)` followed by arithmetic such as
    /// `addingTimeInterval(60)` must come back to the exact instant, not one microsecond later
    /// (C3.1: a request due at `now + 60 s` is eligible at exactly that instant).
    public static func time(for date: Date) -> VirtualTime {
        let micros = ((date.timeIntervalSinceReferenceDate - epoch) * 1_000_000 - 0.25).rounded(.up)
        guard micros.isFinite else { return micros > 0 ? VirtualTime(microseconds: .max) : .zero }
        if micros >= Double(Int64.max) { return VirtualTime(microseconds: .max) }
        if micros <= Double(Int64.min) { return VirtualTime(microseconds: .min) }
        return VirtualTime(microseconds: Int64(micros))
    }
}
