import Foundation
import Synchronization

/// SIGINT handling: the first Ctrl-C asks the running campaign to stop after the runs in flight,
/// so the report of what finished is written (marked incomplete); a second one kills at once.
public final class Interrupt: Sendable {
    private static let requested = Atomic<Int>(0)

    /// The process-wide interrupt, installed by the executable.
    public static let shared = Interrupt()

    /// Not installed: never interrupted unless ``request()`` is called (tests).
    public init() {}

    /// Installs the SIGINT handler.
    public func install() {
        signal(SIGINT) { _ in
            if Interrupt.requested.add(1, ordering: .relaxed).newValue > 1 { _exit(130) }
        }
    }

    /// Asks for a stop, as SIGINT does.
    public func request() { _ = Self.requested.add(1, ordering: .relaxed) }

    /// Whether a stop was asked for.
    public var isRequested: Bool { Self.requested.load(ordering: .relaxed) > 0 }
}
