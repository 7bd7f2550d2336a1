#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import SimulationRuntime
import Synchronization
import ThreadSanitizerSupport

/// The isolated workers of one ``IsolatedTarget``: idle children, the hangs seen, and the run
/// timeout children are told (the whole one until a run hangs, then ``laterTimeout(full:slowestRun:)``).
final class ChildPool: Sendable {
    let executable: String
    let arguments: [String]
    let environment: [String]
    /// The run timeout (milliseconds), as configured: the first hang is judged by it.
    let timeoutMilliseconds: Int?
    /// How long a new child may take to say it serves (nil: no limit).
    let startTimeoutMilliseconds: Int?
    /// Said after "it ended before serving" (``CrashWording/workerStartAdvice``).
    let startAdvice: String
    /// Why children cannot serve, once one ended before its ``VerdictWire/ready`` line: later
    /// runs fail at once with it rather than each starting a child that cannot serve.
    private let cannotServe = Mutex<ChildConnection.SpawnError?>(nil)
    private let idle = Mutex<[ChildConnection]>([])
    private let hangs = Mutex<[String: RunVerdict]>([:])
    /// The longest a run took from its request to its verdict (wall-clock milliseconds).
    private let slowestRun = Atomic<Int>(0)
    let started = Atomic<Int>(0)

    /// How many times the slowest run that finished a later run may go without progress.
    static let laterTimeoutFactor = 20
    /// The least a later run is given, in milliseconds (a scheduler hiccup on a loaded machine
    /// is milliseconds; a run of these workloads takes microseconds to milliseconds).
    static let laterTimeoutFloor = 1_000

    /// What a run is given once a run hung: `laterTimeoutFactor` times the slowest run that
    /// finished, at least `laterTimeoutFloor`, never more than the whole timeout `full` (all in
    /// milliseconds). A run's longest stretch without progress is at most its whole time, so a
    /// run as slow as the slowest yet keeps a twentyfold margin.
    static func laterTimeout(full: Int, slowestRun: Int) -> Int {
        let (scaled, overflow) = laterTimeoutFactor.multipliedReportingOverflow(by: slowestRun)
        return min(full, max(laterTimeoutFloor, overflow ? full : scaled))
    }

    /// The run timeout a child is told now: the whole one until a run hung, then less.
    var currentTimeoutMilliseconds: Int? {
        guard let full = timeoutMilliseconds else { return nil }
        let hung = hangs.withAnnotatedLock { !$0.isEmpty }
        return hung ? Self.laterTimeout(full: full, slowestRun: slowestRun.load(ordering: .relaxed)) : full
    }

    /// Notes a run that finished: its time since `sent` (monotonic nanoseconds), which becomes
    /// now for the next run of the batch.
    func noteFinished(since sent: inout UInt64) {
        let now = RealClock.monotonicNanoseconds()
        _ = slowestRun.max(Int((now &- sent) / 1_000_000), ordering: .relaxed)
        sent = now
    }

    init(executable: String, arguments: [String], environment: [String], timeoutMilliseconds: Int?,
         startTimeoutMilliseconds: Int?, startAdvice: String = "") {
        self.startTimeoutMilliseconds = startTimeoutMilliseconds
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.startAdvice = startAdvice
        self.timeoutMilliseconds = timeoutMilliseconds
        signal(SIGPIPE, SIG_IGN)  // a write to a dead child must fail with EPIPE, not end us
    }

    /// An idle child, or a new one that said it serves (within ``startTimeoutMilliseconds``: a
    /// test process runs its test up to the campaign first), told the run timeout (its watchdog
    /// judges hangs).
    func take() throws(ChildConnection.SpawnError) -> ChildConnection {
        if let child = idle.withAnnotatedLock({ $0.popLast() }) { return tell(child) }
        if let reason = cannotServe.withAnnotatedLock({ $0 }) { throw reason }
        started.wrappingAdd(1, ordering: .relaxed)
        let child = try ChildConnection(executable: executable, arguments: arguments, environment: environment)
        var failure: String?
        switch child.receive(timeoutMilliseconds: startTimeoutMilliseconds) {
        case .line(let line) where line + "\n" == VerdictWire.ready:
            break
        case .line:
            child.abandon()
            failure = "its first line was not the worker's"
        case .died(_, let signal, _, let status):
            failure = "it ended before serving ("
                + (signal.map { "fatal signal \(CrashMessage.name($0))" } ?? CrashMessage.ending(status: status)) + ")"
        case .hung:
            failure = "it did not begin serving within "
                + "\(CrashMessage.seconds(Double(startTimeoutMilliseconds ?? 0) / 1_000)) s"
        }
        if let failure {
            let reason = ChildConnection.SpawnError(description: failure + startAdvice)
            cannotServe.withAnnotatedLock { $0 = reason }
            throw reason
        }
        return tell(child)
    }

    /// `child`, its watchdog told the current run timeout if it was told another (a child gone
    /// already shows at its next request).
    private func tell(_ child: ChildConnection) -> ChildConnection {
        if let timeout = currentTimeoutMilliseconds, child.watchdogMilliseconds != timeout {
            _ = child.send(VerdictWire.watchdog(milliseconds: timeout))
            child.watchdogMilliseconds = timeout
        }
        return child
    }

    func give(_ child: ChildConnection) {
        idle.withAnnotatedLock { $0.append(child) }
    }

    func knownHang(_ request: String) -> RunVerdict? { hangs.withAnnotatedLock { $0[request] } }

    func rememberHang(_ request: String, _ verdict: RunVerdict) { hangs.withAnnotatedLock { $0[request] = verdict } }

    func finishIdle() {
        for child in idle.withAnnotatedLock({ children in defer { children = [] }; return children }) { child.finish() }
    }

    deinit { finishIdle() }
}
