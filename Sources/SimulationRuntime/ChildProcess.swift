#if canImport(Glibc)
    package import Glibc
#elseif canImport(Darwin)
    package import Darwin
#endif

/// A child process and the pipes to it: requests written to its stdin, answers read from its
/// descriptor 4 (``WorkerAnswers``; its stdout goes to `/dev/null`) line by line, waiting at
/// most a deadline; its stderr goes to an unlinked temporary
/// file whose tail is read when it dies. The mechanism under the engine's isolated runs (its
/// `ChildConnection` speaks the verdict protocol over it).
///
/// ```swift
/// let child = try ChildProcess(executable: "/proc/self/exe", arguments: ["_isolated-worker", file])
/// guard child.send("S\t7\t0\t-1\n") else { … }          // false: the child is gone
/// switch child.receive(timeoutMilliseconds: 10_000, lastWordsMarker: UInt8(ascii: "X")) {
/// case .line(let text): …
/// case .ended(let rest, let stderr, _, let status): … // reaped: what it wrote last, its stderr
/// case .killed: …                                      // no answer in time: SIGKILL, reaped
/// }
/// child.finish()                                       // close its stdin and reap it
/// ```
///
/// Contract: every descriptor is close-on-exec, and children are started one at a time on
/// ``SpawnThread``, so children spawned by other threads inherit none of this child's pipes (a
/// stray write end would hide its death). The child dies with this process (``ParentLifeline``:
/// this side holds the lifeline's write end until the child is reaped). SIGPIPE must be
/// ignored in the parent: a write to a dead child then fails with EPIPE instead of killing it.
/// Not thread-safe: one thread uses it at a time. Once it has ended (``Answer/ended(rest:stderr:status:)``,
/// ``Answer/killed``, ``finish()``) it must not be used again.
package final class ChildProcess {
    /// What waiting for an answer came to.
    package enum Answer {
        /// The next line, without its newline.
        case line(Substring)
        /// The child ended (or began its last words, ``receive(timeoutMilliseconds:isCancelled:lastWordsMarker:)``)
        /// before a line: everything unread it answered, what it wrote to stderr since the
        /// last ``send(_:)`` (at most the last 4 KiB) and where in its stderr that text began,
        /// and its wait status. It has been reaped.
        case ended(rest: [UInt8], stderr: String, stderrOffset: Int, status: Int32)
        /// No line within the deadline, or cancelled: the child was killed and reaped.
        case killed
    }

    /// A child that could not be started, and why.
    package struct SpawnError: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) { self.description = description }
    }

    package let pid: pid_t
    private let requests: Int32
    private let responses: Int32
    private let errors: Int32
    /// The write end of the child's ``ParentLifeline``: never written; closed once the child is reaped.
    private let lifeline: Int32
    private var buffer: [UInt8] = []
    /// Where `read(2)` puts bytes before they join ``buffer`` (kept: an answer is small).
    private var chunk = [UInt8](repeating: 0, count: 65_536)
    private var alive = true
    /// Where the child's stderr stood when the last requests were sent.
    private var stderrStart = 0

    /// Starts `executable` with `arguments` and this process's environment (plus its lifeline
    /// and answer descriptor, and `environment`'s entries, `NAME=value`, which replace this
    /// process's of the same names).
    package init(executable: String, arguments: [String], environment: [String] = []) throws(SpawnError) {
        // One spawn at a time, on the thread that lives as long as the process (the child's
        // parent-death signal follows the thread that started it): between pipe() and the
        // close-on-exec flag a concurrent spawn would inherit the new descriptors (pipe2 and
        // mkostemp, which set it at once, are not exported).
        let spawned = SpawnThread.shared.perform { () -> Result<Spawned, SpawnError> in
            Result { () throws(SpawnError) in
                try Self.spawn(executable: executable, arguments: arguments, environment: environment)
            }
        }
        (pid, requests, responses, errors, lifeline) = try spawned.get()
    }

    /// A started child: its pid, and this side's ends of its stdin, stdout, stderr file and lifeline.
    private typealias Spawned = (pid: pid_t, requests: Int32, responses: Int32, errors: Int32, lifeline: Int32)

    private static func spawn(executable: String, arguments: [String], environment: [String]) throws(SpawnError)
        -> Spawned {
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        var lifeline: [Int32] = [0, 0]
        guard pipe(&toChild) == 0 else { throw SpawnError(description: "pipe: errno \(errno)") }
        guard pipe(&fromChild) == 0, pipe(&lifeline) == 0 else {
            let number = errno
            for fd in toChild + fromChild + lifeline where fd > 0 { close(fd) }
            throw SpawnError(description: "pipe: errno \(number)")
        }
        var template = Array((temporaryDirectory + "/isolated-run-XXXXXX").utf8CString)
        var errorFile = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if errorFile >= 0 {
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            _ = fcntl(errorFile, F_SETFL, O_APPEND)
        }
        // Every descriptor the child gets is moved above the child's own numbers first (and is
        // close-on-exec): a pipe end numbered 3 or 4 here would be overwritten by an earlier
        // dup2 of the child's layout, or keep close-on-exec in a dup2 onto itself.
        for index in 0..<2 {
            toChild[index] = Self.raised(toChild[index])
            fromChild[index] = Self.raised(fromChild[index])
            lifeline[index] = Self.raised(lifeline[index])
        }
        if errorFile >= 0 { errorFile = Self.raised(errorFile) }
        for fd in toChild + fromChild + lifeline + [errorFile] where fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The child's layout: requests on stdin, stdout to /dev/null (whatever the code it runs
        // prints), stderr to the file, the lifeline on 3 and the answers on 4 (WorkerAnswers).
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        if errorFile >= 0 { posix_spawn_file_actions_adddup2(&actions, errorFile, 2) }
        posix_spawn_file_actions_adddup2(&actions, lifeline[0], ParentLifeline.descriptor)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], WorkerAnswers.childDescriptor)
        // A child of this very program (`/proc/self/exe`) is given this process's own name, which
        // its messages use ("upload-bgsim: CRASH: …", not "exe: CRASH: …").
        let name = executable == "/proc/self/exe" ? CommandLine.arguments.first ?? executable : executable
        let argv = ([name] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp = childEnvironment(adding: environment).map { strdup($0) } + [nil]
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

    /// `descriptor` moved to a number above every descriptor of the child's layout (10 or more),
    /// close-on-exec; the original is closed. Unchanged if it cannot be moved.
    private static func raised(_ descriptor: Int32) -> Int32 {
        guard descriptor >= 0, descriptor < 10 else { return descriptor }
        let moved = fcntl(descriptor, F_DUPFD_CLOEXEC, 10)
        guard moved >= 0 else { return descriptor }
        close(descriptor)
        return moved
    }

    /// This process's environment for a child, with its ``ParentLifeline`` and ``WorkerAnswers``
    /// entries and `added` (which replace entries of the same names).
    private static func childEnvironment(adding added: [String]) -> [String] {
        let replaced = Set([ParentLifeline.variable, WorkerAnswers.variable] + added.map { String($0.prefix { $0 != "=" }) })
        var entries: [String] = []
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if !replaced.contains(String(text.prefix { $0 != "=" })) { entries.append(text) }
            cursor += 1
        }
        entries += added
        return entries + [ParentLifeline.environment(parent: getpid()), WorkerAnswers.environment]
    }

    private static var temporaryDirectory: String {
        if let value = getenv("TMPDIR"), value.pointee != 0 { return String(cString: value) }
        return "/tmp"
    }

    /// Sends requests (one or more lines) without waiting; false if the child is gone.
    package func send(_ requests: String) -> Bool {
        precondition(alive, "a child process was used after it ended")
        stderrStart = errorFileSize()
        var bytes = Array(requests.utf8)
        return writeAll(&bytes)
    }

    /// Waits for the next line. With a deadline, the child is killed once it passes; with
    /// `isCancelled`, polled about ten times a second, once it returns true. A `lastWordsMarker`
    /// byte at the start of the unread output means the child is dying and writing its last
    /// words (a crash dump): what it writes until it ends comes back whole in
    /// ``Answer/ended(rest:stderr:status:)``.
    package func receive(timeoutMilliseconds: Int?, isCancelled: (() -> Bool)? = nil,
                         lastWordsMarker: UInt8? = nil) -> Answer {
        let deadline = timeoutMilliseconds.map { RealClock.monotonicMilliseconds() + $0 }
        while true {
            if let isCancelled, isCancelled() { return killAndReap() }
            if let marker = lastWordsMarker, buffer.first == marker { return ended() }
            if let newline = buffer.firstIndex(of: 0x0a) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return .line(line[...])
            }
            var wait: Int32 = -1
            if let deadline {
                let left = deadline - RealClock.monotonicMilliseconds()
                if left <= 0 { return killAndReap() }
                wait = Int32(min(left, Int(Int32.max)))
            }
            if isCancelled != nil { wait = wait < 0 ? 100 : min(wait, 100) }
            var poller = pollfd(fd: responses, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, wait)
            if ready < 0 {
                if errno == EINTR { continue }
                return ended()
            }
            if ready == 0 { continue }  // the deadline check above ends the wait
            if readSome() == 0 { return ended() }
        }
    }

    /// The child as gone: everything it wrote, reaped (after a failed ``send(_:)``).
    package func ended() -> Answer {
        while readSome() > 0 {}
        let (status, stderr, offset) = closeAndReap()
        let rest = buffer
        buffer = []
        return .ended(rest: rest, stderr: stderr, stderrOffset: offset, status: status)
    }

    /// Ends a child that broke the protocol (an answer that is none): kills and reaps it. A
    /// polite ``finish()`` could wait for ever on a child blocked writing to a pipe nobody reads.
    package func abandon() { if alive { _ = killAndReap() } }

    /// Ends the child: closes its stdin (it exits at end of input) and reaps it.
    package func finish() {
        guard alive else { return }
        alive = false
        close(requests)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(responses)
        close(lifeline)
        if errors >= 0 { close(errors) }
    }

    private func killAndReap() -> Answer {
        kill(pid, SIGKILL)
        _ = closeAndReap()
        return .killed
    }

    /// Closes both pipes, reaps the child and closes its lifeline: its wait status, what it
    /// wrote to stderr since the last ``send(_:)``, and where that text began in its stderr.
    private func closeAndReap() -> (status: Int32, stderr: String, offset: Int) {
        alive = false
        close(requests)
        close(responses)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(lifeline)
        let (stderr, offset) = errorFileText(from: stderrStart)
        if errors >= 0 { close(errors) }
        return (status, stderr, offset)
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

    private func errorFileSize() -> Int {
        guard errors >= 0 else { return 0 }
        var info = stat()
        return fstat(errors, &info) == 0 ? Int(info.st_size) : 0
    }

    /// What the child wrote to stderr from `start`, at most the last 4 KiB of it, and where
    /// that text begins.
    private func errorFileText(from start: Int) -> (text: String, offset: Int) {
        guard errors >= 0 else { return ("", start) }
        let end = errorFileSize()
        let from = max(start, end - 4_096)
        guard end > from else { return ("", from) }
        var bytes = [UInt8](repeating: 0, count: end - from)
        let count = bytes.withUnsafeMutableBytes { pread(errors, $0.baseAddress, $0.count, off_t(from)) }
        return (String(decoding: bytes[..<max(0, count)], as: UTF8.self), from)
    }

    deinit { finish() }
}
