import Foundation
import Synchronization

/// SIGINT handling: the first Ctrl-C asks the running campaign to stop after the runs in flight,
/// so the report of what finished is written (marked incomplete) and the command exits 130; a
/// second Ctrl-C kills the process at once.
///
/// ```swift
/// Interrupt.shared.install()                    // the executable, once
/// let stop = Interrupt(); stop.request()         // a test: a campaign that is interrupted at once
/// BGSim.run(["fuzz", "--report", path], io: io, interrupt: stop)
/// ```
///
/// Contract: each instance has its own flag; only ``shared`` is connected to the signal.
public final class Interrupt: Sendable {
    private let requested = Atomic<Int>(0)

    /// The process-wide interrupt, connected to SIGINT by ``install()``.
    public static let shared = Interrupt()

    /// A flag that only ``request()`` sets.
    public init() {}

    /// Installs the SIGINT handler on ``shared``, and unblocks SIGINT in case the parent process
    /// (a test runner, a CI agent) started us with it blocked.
    public func install() {
        _ = Interrupt.shared
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        _ = sigprocmask(SIG_UNBLOCK, &unblock, nil)
        signal(SIGINT) { _ in
            if Interrupt.shared.requested.add(1, ordering: .relaxed).newValue > 1 { _exit(130) }
        }
    }

    /// Asks for a stop, as SIGINT does.
    public func request() { _ = requested.add(1, ordering: .relaxed) }

    /// Whether a stop was asked for.
    public var isRequested: Bool { requested.load(ordering: .relaxed) > 0 }
}
