/// The identifier of one UIKit background task, as `beginBackgroundTask` returns it.
///
/// Mirrors `UIBackgroundTaskIdentifier`: real identifiers are small positive integers that count
/// up per process and are never reused (reference A2.5); ``invalid`` (raw value 0, A2.4) is what
/// `beginBackgroundTask` returns when background execution is not possible (A2.1) and what code
/// stores once a task has ended (A5.4).
///
/// ```swift
/// var taskID = BackgroundTaskIdentifier.invalid
/// taskID = host.beginBackgroundTask(withName: "upload", expirationHandler: nil)
/// if taskID != .invalid { host.endBackgroundTask(taskID) }
/// ```
public struct BackgroundTaskIdentifier: RawRepresentable, Hashable, Comparable, Sendable,
    CustomStringConvertible
{
    /// The integer the system uses for the task.
    public let rawValue: Int

    /// Wraps a raw identifier; any integer is accepted, 0 means ``invalid``.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `UIBackgroundTaskIdentifier.invalid`: no task.
    public static let invalid = BackgroundTaskIdentifier(rawValue: 0)

    /// `"invalid"` or the decimal identifier.
    public var description: String { self == .invalid ? "invalid" : String(rawValue) }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
