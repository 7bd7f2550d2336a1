#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import SimulationRuntime

/// One isolated worker process, spoken to in the verdict protocol: the parent writes a request
/// line to its stdin and reads the verdict line from its answer descriptor (`WorkerAnswers`),
/// waiting at most a deadline when given one (a run's hang is judged by the child's own
/// watchdog, which ends the child); a child
/// that crashes writes its crash dump (``CrashOutput``) and dies, and the tail of its stderr
/// becomes the crash's message. The process, its pipes and its lifeline are the runtime room's
/// `ChildProcess` (SimulationRuntime); this adds the protocol: the verdict decoder and the dump.
///
/// ```swift
/// let child = try ChildConnection(executable: "/proc/self/exe", arguments: ["_isolated-worker", file])
/// switch child.exchange("S\t7\t0\t-1\n", timeoutMilliseconds: 10_000) {
/// case .line(let verdict): …
/// case .died(let dump, let signal, let stderr, let status): …   // a crash: the child is gone
/// case .hung: …                                                  // killed after the deadline
/// }
/// ```
///
/// Contract: as `ChildProcess`'s (close-on-exec descriptors, one spawn at a time, the child dies
/// with this process). SIGPIPE must be ignored in the parent (``IsolatedTarget`` does it). Not
/// thread-safe: one worker uses it at a time.
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

    typealias SpawnError = ChildProcess.SpawnError

    private let process: ChildProcess
    var pid: pid_t { process.pid }
    /// The coverage layout the child sent last.
    var decoder = VerdictWire.Decoder()
    /// The run timeout its watchdog was told last (``VerdictWire/watchdog(milliseconds:)``), in
    /// milliseconds; nil before the first.
    var watchdogMilliseconds: Int?

    init(executable: String, arguments: [String], environment: [String] = []) throws(SpawnError) {
        process = try ChildProcess(executable: executable, arguments: arguments, environment: environment)
    }

    /// Sends one request and waits for its answer.
    func exchange(_ request: String, timeoutMilliseconds: Int?) -> Exchange {
        guard send(request) else { return Self.exchange(process.ended()) }
        return receive(timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Sends requests (one or more lines) without waiting; false if the child is gone.
    func send(_ requests: String) -> Bool { process.send(requests) }

    /// Waits for the answer to the oldest request not yet answered. With `isCancelled`, polled
    /// about ten times a second, the child is killed once it returns true (the answer: `.hung`).
    func receive(timeoutMilliseconds: Int?, isCancelled: (() -> Bool)? = nil) -> Exchange {
        Self.exchange(process.receive(timeoutMilliseconds: timeoutMilliseconds, isCancelled: isCancelled,
                                      lastWordsMarker: Self.dumpMarker))
    }

    /// Ends the child: closes its stdin (it exits at end of input) and reaps it.
    func finish() { process.finish() }

    /// Ends a child that answered something that is no answer: kills and reaps it.
    func abandon() { process.abandon() }

    /// The first byte of a crash dump (``CrashOutput``): the child's last words.
    private static let dumpMarker = UInt8(ascii: "X")

    private static func exchange(_ answer: ChildProcess.Answer) -> Exchange {
        switch answer {
        case .line(let line): return .line(line)
        case .killed: return .hung
        case .ended(let rest, let stderr, let stderrOffset, let status):
            let (dump, signal, runStderr) = parseDump(rest)
            // A dying run's message is read from its own lines: not an earlier run's of the same
            // batch, nor what a test framework printed as the child started.
            var text = stderr
            if let runStderr, runStderr > stderrOffset {
                text = String(decoding: Array(stderr.utf8.dropFirst(runStderr - stderrOffset)), as: UTF8.self)
            }
            return .died(dump: dump, signal: signal, stderr: text, status: status)
        }
    }

    /// The crash dump the handler wrote after the last verdict line (``CrashOutput``), if whole:
    /// the run's choices, the signal, and where the run's stderr began.
    private static func parseDump(_ buffer: [UInt8]) -> (VerdictWire.Recorded?, Int32?, Int?) {
        guard buffer.first == dumpMarker, let newline = buffer.firstIndex(of: 0x0a) else { return (nil, nil, nil) }
        let fields = String(decoding: buffer[1..<newline], as: UTF8.self).split(separator: "\t").compactMap { Int($0) }
        guard fields.count == 6 else { return (nil, nil, nil) }
        let (signal, outcomeCount, actionCount, fallbacks) = (fields[0], fields[1], fields[2], fields[3])
        let (idleCount, stderrOffset) = (fields[4], fields[5])
        let body = buffer[(newline + 1)...]
        guard body.count == outcomeCount * 8 + actionCount * 24 + idleCount * 16 else {
            return (nil, Int32(signal), stderrOffset)
        }
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
                Int32(signal), stderrOffset)
    }
}
