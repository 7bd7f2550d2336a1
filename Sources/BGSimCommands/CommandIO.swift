public import BackgroundTaskSimulator
import Synchronization

/// Where a command writes: stdout for results, stderr for progress and errors. Tests pass a
/// capturing instance; the executable passes the real streams.
///
/// ```swift
/// let io = CommandIO.capturing()
/// let code = BGSim.run(["list"], io: io)
/// print(io.captured.stdout)
/// ```
public final class CommandIO: @unchecked Sendable {
    // @unchecked: `write` closures are called from the command's thread; progress comes from
    // campaign workers but goes through `progressLock`.
    public let writeOut: @Sendable (String) -> Void
    public let writeErr: @Sendable (String) -> Void
    /// Whether stderr is a terminal (progress is shown only then).
    public let stderrIsTerminal: Bool
    /// Where scenario paths are resolved from.
    public let workingDirectory: String?
    /// The workloads scenario files may name: the package's own, or a user's
    /// (``BGSim/main(workloads:includingBuiltIn:)``).
    public let workloads: WorkloadRegistry
    /// How bgsim was invoked (``Invocation``): the start of every replay command it prints.
    public let invocation: String
    /// The environment variables commands read (`--shard auto`); the executable passes the
    /// process's, tests pass their own.
    public let environment: [String: String]
    /// The failure database's folder when no option names one: the executable passes
    /// `.bgsim/failures`; nil (the default, for tests and embedders) means none.
    public let failureDatabase: String?

    /// The folder the executable uses by default.
    public static let defaultFailureDatabase = ".bgsim/failures"

    /// The program isolated runs start as their child: this process's own executable
    /// (`/proc/self/exe` from bgsim's `main`); nil in a test process, which uses the `bgsim`
    /// built next to it.
    public let childExecutable: String?

    /// The program's own name in its messages and help: `bgsim`, or a user's own bgsim's
    /// executable name (`upload-bgsim`), from `argv[0]` (``Invocation/toolName(argv0:)``).
    public let toolName: String

    public init(writeOut: @escaping @Sendable (String) -> Void, writeErr: @escaping @Sendable (String) -> Void,
                stderrIsTerminal: Bool, workingDirectory: String? = nil, invocation: String = "bgsim",
                environment: [String: String] = [:], failureDatabase: String? = nil,
                workloads: WorkloadRegistry = .builtIn, childExecutable: String? = nil, toolName: String = "bgsim") {
        self.toolName = toolName
        self.writeOut = writeOut
        self.writeErr = writeErr
        self.stderrIsTerminal = stderrIsTerminal
        self.workingDirectory = workingDirectory
        self.invocation = invocation
        self.environment = environment
        self.failureDatabase = failureDatabase
        self.workloads = workloads
        self.childExecutable = childExecutable
    }

    func out(_ line: String = "") { writeOut(line + "\n") }
    func err(_ line: String) { writeErr(line + "\n") }

    /// Output captured in memory, for tests.
    public final class Captured: @unchecked Sendable {
        // @unchecked: appended under a lock.
        private let lock = NSLockLike()
        private var out = ""
        private var err = ""
        public var stdout: String { lock.withLock { out } }
        public var stderr: String { lock.withLock { err } }
        func appendOut(_ text: String) { lock.withLock { out += text } }
        func appendErr(_ text: String) { lock.withLock { err += text } }
    }

    /// An IO whose output is kept in ``captured``.
    public static func capturing(terminal: Bool = false, invocation: String = "bgsim",
                                 environment: [String: String] = [:], failureDatabase: String? = nil,
                                 workloads: WorkloadRegistry = .builtIn, toolName: String = "bgsim")
        -> (io: CommandIO, captured: Captured) {
        let captured = Captured()
        let io = CommandIO(writeOut: { captured.appendOut($0) }, writeErr: { captured.appendErr($0) },
                           stderrIsTerminal: terminal, invocation: invocation, environment: environment,
                           failureDatabase: failureDatabase, workloads: workloads, toolName: toolName)
        return (io, captured)
    }
}

/// A tiny lock for the capture buffers.
final class NSLockLike: Sendable {
    private let mutex = Mutex<Void>(())
    func withLock<T>(_ body: () -> T) -> T { mutex.withLock { _ in body() } }
}
