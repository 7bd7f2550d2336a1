#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where an isolated worker writes its answers: a descriptor of its own, never stdout. Whatever
/// the code a worker runs prints (an app's `print` logging, a test framework's progress lines
/// in a test process serving as a worker) goes to stdout, which ``ChildProcess`` points at
/// `/dev/null`, and cannot get into the protocol: a workload that printed once wrote into the
/// verdict pipe, and the parent, reading a line that was no verdict, waited for ever for a child
/// blocked on that full pipe.
///
/// ```swift
/// // the child, before its first answer:
/// let answers = WorkerAnswers.descriptor        // 4 in a child of ChildProcess, else 1
/// SignalSafeOutput.write(answers, Array(line.utf8))
/// // the parent: ChildProcess dups the answer pipe to 4 and passes `environment`.
/// ```
///
/// Contract: in a child started by ``ChildProcess`` the variable names descriptor 4, which is
/// then close-on-exec (the child's own children do not inherit it, nor the variable); in any
/// other process it is 1 (a worker started by hand answers on stdout). Read once per process.
package enum WorkerAnswers {
    /// The child's descriptor for its answers (after the lifeline's, ``ParentLifeline/descriptor``).
    package static let childDescriptor: Int32 = 4
    /// The environment variable that tells the child where to answer: `"4"`.
    package static let variable = "BGSIM_WORKER_ANSWERS"
    /// The child's environment entry.
    package static var environment: String { "\(variable)=\(childDescriptor)" }

    /// This process's answer descriptor (see the contract).
    package static let descriptor: Int32 = {
        guard let value = getenv(variable).flatMap({ Int32(String(cString: $0)) }) else { return 1 }
        unsetenv(variable)
        guard fcntl(value, F_GETFD) >= 0 else { return 1 }
        _ = fcntl(value, F_SETFD, FD_CLOEXEC)
        return value
    }()

    /// How many bytes this process's stderr holds (the size of the file a ``ChildProcess``
    /// points it at; 0 when it is no regular file): where the next line written there starts.
    package static func stderrOffset() -> Int {
        var info = stat()
        guard fstat(2, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return 0 }
        return Int(info.st_size)
    }
}
