public import Dispatch

/// A ``WorkQueue`` backed by a real `DispatchQueue`: what an app uses on a device.
///
/// ```swift
/// let uploads = DispatchWorkQueue(DispatchQueue(label: "com.example.uploads"))
/// uploads.asyncAfter(.seconds(2)) { retryUpload() }
/// ```
///
/// Contract: `async`, `asyncAfter` and `sync` forward to the queue; a negative delay means now.
public final class DispatchWorkQueue: WorkQueue {
    /// The underlying queue.
    public let queue: DispatchQueue

    /// Wraps `queue`.
    public init(_ queue: DispatchQueue) { self.queue = queue }

    public var label: String { queue.label }

    public func async(_ work: @escaping @Sendable () -> Void) { queue.async(execute: work) }

    public func asyncAfter(_ delay: Duration, _ work: @escaping @Sendable () -> Void) {
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        let clamped = Int(clamping: max(0, nanoseconds))
        queue.asyncAfter(deadline: .now() + .nanoseconds(clamped), execute: work)
    }

    public func sync<Result, Failure: Error>(_ work: () throws(Failure) -> Result) throws(Failure) -> Result {
        // `DispatchQueue.sync` rethrows untyped; the outcome crosses it as a value instead.
        let outcome = queue.sync { () -> Swift.Result<Result, Failure> in
            do throws(Failure) { return .success(try work()) } catch { return .failure(error) }
        }
        return try outcome.get()
    }
}

/// An ``ExecutionHost`` over Dispatch: `DispatchQueue.main`, the global queue and new serial
/// queues. The UIKit adapter uses it; so can any app code that takes an ``ExecutionHost``.
///
/// ```swift
/// let work = BackgroundWork(host: UIKitApplicationHost())   // uses DispatchExecutionHost inside
/// ```
public final class DispatchExecutionHost: ExecutionHost {
    public let mainQueue: any WorkQueue = DispatchWorkQueue(.main)
    public let backgroundQueue: any WorkQueue = DispatchWorkQueue(.global())

    /// The process's Dispatch queues.
    public init() {}

    public func makeSerialQueue(label: String) -> any WorkQueue {
        DispatchWorkQueue(DispatchQueue(label: label))
    }
}
