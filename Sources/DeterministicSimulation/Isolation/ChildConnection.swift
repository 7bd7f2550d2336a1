#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import SimulationRuntime

/// One isolated worker process and the pipes to it: the parent writes a request line to its
/// stdin and reads the verdict line from its stdout, waiting at most a deadline when given one
/// (a run's hang is judged by the child's own watchdog, which ends the child); the child's
/// stderr goes to an unlinked temporary file whose tail becomes a crash's message.
///
/// ```swift
/// let child = try ChildConnection(executable: "/proc/self/exe", arguments: ["_isolated-worker", file])
/// switch child.exchange("S\t7\t0\t-1\n", timeoutMilliseconds: 10_000) {
/// case .line(let verdict): …
/// case .died(let dump, let stderr, let status): …   // a crash: the child is gone
/// case .hung: …                                      // killed after the deadline
/// }
/// ```
///
/// Contract: every descriptor is made close-on-exec, and children are started one at a time (on
/// `SpawnThread` (SimulationRuntime)), so children spawned by other workers inherit none of this child's pipes (a
/// stray write end would hide its death). The child dies with this process (`ParentLifeline` (SimulationRuntime):
/// it holds the write end of the child's lifeline until ``finish()``).
/// SIGPIPE must be ignored in the parent (``IsolatedTarget`` does it): a write to a dead child
/// fails with EPIPE instead of killing the parent. Not thread-safe: one worker uses it at a time.
final class ChildConnection: @unchecked Sendable {
    // @unchecked: used by one campaign worker at a time, handed over through ChildPool's lock.

    /// What one request came to.
    enum Exchange {
        /// The verdict line, without its newline.
        case line(Substring)
        /// The child ended before answering: its crash dump (if it wrote one), the stderr it
        /// wrote since the request, and its wait status.
        case died(dump: VerdictWire.Recorded?, signal: Int32?, stderr: String, status: Int32)
        /// No answer within the deadline (or cancelled); the child was killed.
        case hung
    }

    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    let pid: pid_t
    private let requests: Int32
    private let responses: Int32
    private let errors: Int32
    /// The write end of the child's `ParentLifeline` (SimulationRuntime): never written; closed once the child is reaped.
    private let lifeline: Int32
    private var buffer: [UInt8] = []
    /// Where `read(2)` puts bytes before they join ``buffer`` (kept: a run's answer is small).
    private var chunk = [UInt8](repeating: 0, count: 65_536)
    private var alive = true
    /// The coverage layout the child sent last.
    var decoder = VerdictWire.Decoder()

    init(executable: String, arguments: [String]) throws(SpawnError) {
        // One spawn at a time, on the thread that lives as long as the process (the child's
        // parent-death signal follows the thread that started it): between pipe() and the
        // close-on-exec flag a concurrent spawn would inherit the new descriptors (pipe2 and
        // mkostemp, which set it at once, are not exported).
        let spawned = SpawnThread.shared.perform { () -> Result<Spawned, SpawnError> in
            Result { () throws(SpawnError) in try Self.spawn(executable: executable, arguments: arguments) }
        }
        (pid, requests, responses, errors, lifeline) = try spawned.get()
    }

    /// A started child: its pid, and this side's ends of its stdin, stdout, stderr file and lifeline.
    private typealias Spawned = (pid: pid_t, requests: Int32, responses: Int32, errors: Int32, lifeline: Int32)

    private static func spawn(executable: String, arguments: [String]) throws(SpawnError) -> Spawned {
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        var lifeline: [Int32] = [0, 0]
        guard pipe(&toChild) == 0 else { throw SpawnError(description: "pipe: errno \(errno)") }
        guard pipe(&fromChild) == 0, pipe(&lifeline) == 0 else {
            let number = errno
            for fd in toChild + fromChild + lifeline where fd > 0 { close(fd) }
            throw SpawnError(description: "pipe: errno \(number)")
        }
        if lifeline[0] == ParentLifeline.descriptor {  // dup2 onto itself would keep close-on-exec
            let moved = fcntl(lifeline[0], F_DUPFD, ParentLifeline.descriptor + 1)
            close(lifeline[0])
            lifeline[0] = moved
        }
        var template = Array((temporaryDirectory + "/isolated-run-XXXXXX").utf8CString)
        let errorFile = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if errorFile >= 0 {
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            _ = fcntl(errorFile, F_SETFL, O_APPEND)
        }
        for fd in toChild + fromChild + lifeline + [errorFile] where fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        if errorFile >= 0 { posix_spawn_file_actions_adddup2(&actions, errorFile, 2) }
        posix_spawn_file_actions_adddup2(&actions, lifeline[0], ParentLifeline.descriptor)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp = childEnvironment().map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(toChild[0])
        close(fromChild[1])
        close(lifeline[0])
        guard status == 0 else {
            close(toChild[1]); close(fromChild[0]); close(lifeline[1])
            if errorFile >= 0 { close(errorFile) }
            throw SpawnError(description: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        return (pid, toChild[1], fromChild[0], errorFile, lifeline[1])
    }

    /// This process's environment for a child, with its `ParentLifeline` (SimulationRuntime) entry.
    private static func childEnvironment() -> [String] {
        var entries: [String] = []
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if !text.hasPrefix(ParentLifeline.variable + "=") { entries.append(text) }
            cursor += 1
        }
        return entries + [ParentLifeline.environment(parent: getpid())]
    }

    private static var temporaryDirectory: String {
        if let value = getenv("TMPDIR"), value.pointee != 0 { return String(cString: value) }
        return "/tmp"
    }

    /// Sends one request and waits for its answer.
    func exchange(_ request: String, timeoutMilliseconds: Int?) -> Exchange {
        guard send(request) else { return died() }
        return receive(timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Where the child's stderr stood when the last requests were sent: a crash's message is
    /// read from what it wrote after that.
    private var stderrStart = 0

    /// Sends requests (one or more lines) without waiting; false if the child is gone.
    func send(_ requests: String) -> Bool {
        precondition(alive, "a dead isolated worker was reused")
        stderrStart = errorFileSize()
        var bytes = Array(requests.utf8)
        return writeAll(&bytes)
    }

    /// Waits for the answer to the oldest request not yet answered. With `isCancelled`, polled
    /// about ten times a second, the child is killed once it returns true (the answer: `.hung`).
    func receive(timeoutMilliseconds: Int?, isCancelled: (() -> Bool)? = nil) -> Exchange {
        let deadline = timeoutMilliseconds.map { Self.nowMilliseconds() + $0 }
        while true {
            if let isCancelled, isCancelled() { return killHung() }
            if buffer.first == UInt8(ascii: "X") { return died() }  // the crash dump
            if let newline = buffer.firstIndex(of: 0x0a) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return .line(line[...])
            }
            var wait: Int32 = -1
            if let deadline {
                let left = deadline - Self.nowMilliseconds()
                if left <= 0 { return killHung() }
                wait = Int32(min(left, Int(Int32.max)))
            }
            if isCancelled != nil { wait = wait < 0 ? 100 : min(wait, 100) }
            var poller = pollfd(fd: responses, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, wait)
            if ready < 0 {
                if errno == EINTR { continue }
                return died()
            }
            if ready == 0 { continue }  // the deadline check above ends the wait
            if readSome() == 0 { return died() }
        }
    }

    /// Ends the child: closes its stdin (it exits at end of input) and reaps it.
    func finish() {
        guard alive else { return }
        alive = false
        close(requests)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(responses)
        close(lifeline)
        if errors >= 0 { close(errors) }
    }

    private func writeAll(_ bytes: inout [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(requests, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Reads what is there into ``buffer``; the byte count, 0 at end of file.
    private func readSome() -> Int {
        while true {
            let count = chunk.withUnsafeMutableBytes { read(responses, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count > 0 { buffer += chunk[..<count] }
            return max(0, count)
        }
    }

    private func died() -> Exchange {
        while readSome() > 0 {}
        alive = false
        close(requests)
        close(responses)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(lifeline)
        let stderr = errorFileText(from: stderrStart)
        if errors >= 0 { close(errors) }
        let (dump, signal) = parseDump()
        return .died(dump: dump, signal: signal, stderr: stderr, status: status)
    }

    private func killHung() -> Exchange {
        kill(pid, SIGKILL)
        alive = false
        close(requests)
        close(responses)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(lifeline)
        if errors >= 0 { close(errors) }
        return .hung
    }

    /// The crash dump the handler wrote after the last verdict line (``CrashOutput``), if whole.
    private func parseDump() -> (VerdictWire.Recorded?, Int32?) {
        guard buffer.first == UInt8(ascii: "X"), let newline = buffer.firstIndex(of: 0x0a) else { return (nil, nil) }
        let fields = String(decoding: buffer[1..<newline], as: UTF8.self).split(separator: "\t").compactMap { Int($0) }
        guard fields.count == 5 else { return (nil, nil) }
        let (signal, outcomeCount, actionCount, fallbacks) = (fields[0], fields[1], fields[2], fields[3])
        let idleCount = fields[4]
        let body = buffer[(newline + 1)...]
        guard body.count == outcomeCount * 8 + actionCount * 24 + idleCount * 16 else { return (nil, Int32(signal)) }
        var words: [UInt64] = []
        words.reserveCapacity(outcomeCount + actionCount * 3)
        var index = body.startIndex
        while index < body.endIndex {
            var word: UInt64 = 0
            for shift in 0..<8 { word |= UInt64(body[index + shift]) << (8 * shift) }  // little-endian
            words.append(word)
            index += 8
        }
        var actions: [ChoiceAction] = []
        let idleStart = outcomeCount + actionCount * 3
        for at in stride(from: outcomeCount, to: idleStart, by: 3) {
            actions.append(ChoiceAction(firstDraw: Int(words[at]), stopDraw: Int(words[at + 1]), isSkippable: words[at + 2] == 1))
        }
        var idleSteps: [Range<Int>] = []
        for at in stride(from: idleStart, to: words.count, by: 2) where words[at] <= words[at + 1] {
            idleSteps.append(Int(words[at])..<Int(words[at + 1]))
        }
        return (VerdictWire.Recorded(outcomes: Array(words[..<outcomeCount]), actions: actions, idleSteps: idleSteps,
                                     fallbackCount: fallbacks),
                Int32(signal))
    }

    private func errorFileSize() -> Int {
        guard errors >= 0 else { return 0 }
        var info = stat()
        return fstat(errors, &info) == 0 ? Int(info.st_size) : 0
    }

    /// What the child wrote to stderr from `start`, at most the last 4 KiB of it.
    private func errorFileText(from start: Int) -> String {
        guard errors >= 0 else { return "" }
        let end = errorFileSize()
        let from = max(start, end - 4_096)
        guard end > from else { return "" }
        var bytes = [UInt8](repeating: 0, count: end - from)
        let count = bytes.withUnsafeMutableBytes { pread(errors, $0.baseAddress, $0.count, off_t(from)) }
        return String(decoding: bytes[..<max(0, count)], as: UTF8.self)
    }

    static func nowMilliseconds() -> Int {
        // Real on every thread (VirtualClocks): the run timeout of isolated runs; never a result.
        Int(VirtualClocks.realMonotonicNanoseconds() / 1_000_000)
    }

    deinit { finish() }
}
