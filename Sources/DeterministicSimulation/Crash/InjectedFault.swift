#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fault planted in bgsim's own code on request, so that tests can show that an internal error
/// never costs a finding (as FoundationDB's BUGGIFY and SQLite's test hooks plant faults in the
/// real code paths). `BGSIM_INJECT_INTERNAL_ERROR` in the environment names the fault:
/// `shrink` traps as a failure's shrink starts, `shrink-hang` spins there forever, `report` traps
/// as a command renders an output after its campaign. In process the
/// crash handler (or the hang watchdog) then prints the failure, unshrunk, and exits 71; an
/// isolated shrink's child dies the same way and the campaign goes on.
///
/// ```swift
/// InjectedFault.atShrinkStart()     // where a failure's shrink starts
/// ```
///
/// Contract: without the variable it does nothing but read the environment (once per shrink,
/// never per run). Not for users: documented in the CrashHandling article only.
package enum InjectedFault: String, Sendable {
    /// A trap as a failure's shrink starts.
    case shrink
    /// An endless loop as a failure's shrink starts (no run in progress: the watchdog's harness case).
    case shrinkHang = "shrink-hang"
    /// A trap as a command renders a report or JUnit file.
    case report

    /// The environment variable that names the fault.
    static let variable = "BGSIM_INJECT_INTERNAL_ERROR"

    /// Plants the fault the environment asks for, if it is one of a shrink's start.
    /// Plants the trap the environment asks for, if it is the report's.
    package static func atReport() {
        guard let value = getenv(variable), String(cString: value) == InjectedFault.report.rawValue else { return }
        fatalError("\(variable)=report: a fault planted in the report writing")
    }

    static func atShrinkStart() {
        guard let value = getenv(variable), let fault = InjectedFault(rawValue: String(cString: value)) else { return }
        switch fault {
        case .shrink:
            fatalError("\(variable)=\(fault.rawValue): a fault planted in the shrinker")
        case .shrinkHang:
            while true { usleep(1_000) }  // tidy: allow a planted hang; it never decides a result
        case .report:
            break
        }
    }
}
