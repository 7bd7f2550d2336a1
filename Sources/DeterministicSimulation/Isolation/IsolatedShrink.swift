#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import SimulationFormats
import SimulationRuntime

/// What shrinking a failure in an isolated worker gave (``CampaignTarget/shrinkInChild(_:invariant:options:isCancelled:)``).
///
/// ```swift
/// switch target.shrinkInChild(recorded, invariant: "no-double-end", options: ShrinkOptions(), isCancelled: { false }) {
/// case .shrunk(let result)?: print(result.choices.token)
/// case .stopped(let fault)?: print(fault.message)       // the failure stands, unshrunk
/// case .cancelled?: break                               // Ctrl-C: unshrunk
/// case nil: break                                       // this target shrinks in process
/// }
/// ```
public enum ChildShrink: Sendable, Equatable {
    /// The shrink finished in the child.
    case shrunk(ShrinkResult)
    /// The child ended before it answered; the failure stands unshrunk.
    case stopped(ShrinkFault)
    /// The campaign was cancelled while the child shrank; the child was stopped.
    case cancelled
}

/// Why a failure was not shrunk: a fault of bgsim's own code (an internal error: the shrinker
/// trapped or made no progress), or a shrink candidate that crashed or hung the workload.
///
/// Contract: ``message`` is one line: the child's last words (Swift's `Fatal error: …` line and
/// bgsim's banner line, or how it ended).
public struct ShrinkFault: Sendable, Equatable {
    /// bgsim's own code faulted (the child ended with ``CrashSignals/internalErrorExitCode``).
    public var isInternalError: Bool
    public var message: String

    public init(isInternalError: Bool, message: String) {
        self.isInternalError = isInternalError
        self.message = message
    }

    /// The fault of a child that ended with wait status `status` after writing `stderr`.
    static func ended(stderr: String, status: Int32) -> ShrinkFault {
        let signal = status & 0x7f
        let code = (status >> 8) & 0xff
        let lines = stderr.split(separator: "\n").map { $0.trimmingWhitespace }.filter { !$0.isEmpty }
        let banner = lines.first { CrashWording.isBannerLine($0) }
        var said = lines.last { !CrashWording.isBannerLine($0) && !$0.hasPrefix("Current stack trace") }
        if let line = said, let logged = CrashMessage.loggedText(line) { said = "it last logged: " + logged }  // no pid
        let how = signal != 0 ? "killed by signal \(CrashMessage.name(signal))" : "exit code \(code)"
        let words = [said, banner].compactMap { $0.map { String($0.prefix(400)) } }
        return ShrinkFault(isInternalError: signal == 0 && code == CrashSignals.internalErrorExitCode,
                           message: (words.isEmpty ? "" : words.joined(separator: "; ") + " ") + "(\(how))")
    }
}

/// The request and answer lines of a shrink in an isolated worker, beside ``VerdictWire``'s run
/// lines on the same connection and in the same shape: `{"shrink":{…}}` to the child,
/// `{"shrunk":{…}}` back.
///
/// ```swift
/// let line = IsolatedShrinkWire.request(ShrinkRequest(choices: recorded, invariant: "no-double-end",
///                                                     options: ShrinkOptions(), runTimeoutMilliseconds: 60_000))
/// // {"shrink":{"choices":"c1.…","invariant":"no-double-end","maxAttempts":2000,"maxSeconds":60, …}}
/// ```
///
/// Contract: the child shrinks with `keeps` = "the run still violates `invariant`" (what every
/// follow-up asks), so its result equals an in-process shrink of the same choices on the same
/// target; a line that does not decode is nil (the caller treats the child as broken).
enum IsolatedShrinkWire {
    /// A shrink asked of a child.
    struct ShrinkRequest: Equatable {
        var choices: ChoiceSequence
        var invariant: String
        var options: ShrinkOptions
        /// The child's hang watchdog for each candidate and between them; nil: none.
        var runTimeoutMilliseconds: Int?
    }

    static func request(_ request: ShrinkRequest) -> String {
        var object: [(String, JSONValue)] = [
            ("choices", JSONValue(request.choices.token)), ("invariant", JSONValue(request.invariant)),
            ("maxAttempts", JSONValue(request.options.maxAttempts)),
            ("maxSeconds", JSONValue(min(request.options.maxSeconds, 1e12))),  // JSON has no infinity
            ("maxCacheBytes", JSONValue(request.options.maxCacheBytes)),
        ]
        if let timeout = request.runTimeoutMilliseconds { object.append(("runTimeoutMilliseconds", JSONValue(timeout))) }
        return VerdictWire.line("shrink", .object(JSONObject(uniqueMembers: object)))
    }

    /// The request of a `shrink` line (the line without its newline); nil when it does not read.
    static func parseRequest(_ line: Substring) -> ShrinkRequest? {
        guard let message = VerdictWire.message(line), message.kind == "shrink" else { return nil }
        return parseRequest(message.body)
    }

    /// The request of a `shrink` message's body.
    static func parseRequest(_ value: JSONValue) -> ShrinkRequest? {
        guard let token = value["choices"]?.stringValue, let choices = try? ChoiceSequence(token: token),
              let invariant = value["invariant"]?.stringValue,
              let maxAttempts = int(value["maxAttempts"]), let maxSeconds = value["maxSeconds"]?.doubleValue,
              let maxCacheBytes = int(value["maxCacheBytes"])
        else { return nil }
        let options = ShrinkOptions(maxAttempts: maxAttempts, maxSeconds: maxSeconds, maxCacheBytes: maxCacheBytes)
        return ShrinkRequest(choices: choices, invariant: invariant, options: options,
                             runTimeoutMilliseconds: int(value["runTimeoutMilliseconds"]))
    }

    static func answer(_ result: ShrinkResult) -> String {
        let passes = result.passes.map { pass -> JSONValue in
            [JSONValue(pass.name), JSONValue(pass.attempts), JSONValue(pass.accepted)]
        }
        let object = JSONObject(uniqueMembers: [
            ("choices", JSONValue(result.choices.token)), ("eventCount", JSONValue(result.eventCount)),
            ("actionCount", JSONValue(result.actionCount)), ("attempts", JSONValue(result.attempts)),
            ("stop", JSONValue(result.stop.rawValue)), ("passes", .array(passes)),
            ("replays", JSONValue(result.replays)),
        ])
        return VerdictWire.line("shrunk", .object(object))
    }

    static func parseAnswer(_ line: Substring) -> ShrinkResult? {
        guard let message = VerdictWire.message(line), message.kind == "shrunk" else { return nil }
        let value = message.body
        guard let token = value["choices"]?.stringValue, let choices = try? ChoiceSequence(token: token),
              let events = int(value["eventCount"]), let actions = int(value["actionCount"]),
              let attempts = int(value["attempts"]), let replays = int(value["replays"]),
              let stop = value["stop"]?.stringValue.flatMap(ShrinkStop.init(rawValue:)),
              let passValues = value["passes"]?.arrayValue
        else { return nil }
        var passes: [ShrinkPassStats] = []
        for pass in passValues {
            guard let name = pass[0]?.stringValue, let tried = int(pass[1]), let accepted = int(pass[2]) else { return nil }
            passes.append(ShrinkPassStats(name: name, attempts: tried, accepted: accepted))
        }
        return ShrinkResult(choices: choices, eventCount: events, actionCount: actions, attempts: attempts, stop: stop,
                            passes: passes, replays: replays)
    }

    private static func int(_ value: JSONValue?) -> Int? { VerdictWire.int(value) }
}

extension IsolatedTarget {
    /// How long the parent waits for a child's shrink before it kills it: the shrink's time budget
    /// plus two run timeouts (the child's own watchdog stops a stuck candidate or shrinker after
    /// one); nil, no limit, when either is off.
    static func shrinkDeadline(_ options: ShrinkOptions, runTimeout: Int?) -> Int? {
        guard let runTimeout, options.maxSeconds < 1e9 else { return nil }
        return Int(options.maxSeconds * 1_000) + 2 * runTimeout + 10_000
    }

    /// Shrinks the failure in one of the pool's children (``IsolatedShrinkWire``): a trap or a
    /// hang of the shrinker, or a candidate that crashes or hangs the workload, ends that child
    /// only, and the failure stands unshrunk (``ChildShrink/stopped(_:)``).
    public func shrinkInChild(_ recorded: ChoiceSequence, invariant: String, options: ShrinkOptions,
                              isCancelled: () -> Bool) -> ChildShrink? {
        let request = IsolatedShrinkWire.request(.init(choices: recorded, invariant: invariant, options: options,
                                                       runTimeoutMilliseconds: pool.timeoutMilliseconds))
        let child: ChildConnection
        do {
            child = try pool.take()
        } catch {
            return .stopped(ShrinkFault(isInternalError: true, message: "the isolated worker could not start: \(error)"))
        }
        if let full = pool.timeoutMilliseconds { child.watchdogMilliseconds = full }  // the request retimes it
        let answer = child.send(request)
            ? withoutActuallyEscaping(isCancelled) {
                child.receive(timeoutMilliseconds: Self.shrinkDeadline(options, runTimeout: pool.timeoutMilliseconds),
                              isCancelled: $0)
            }
            : child.receive(timeoutMilliseconds: nil)  // gone: its last words
        switch answer {
        case .line(let line):
            guard let result = IsolatedShrinkWire.parseAnswer(line) else {
                child.finish()
                return .stopped(ShrinkFault(isInternalError: true, message: "the isolated worker's answer does not read: "
                    + String(line.prefix(200))))
            }
            pool.give(child)
            return .shrunk(result)
        case .died(_, _, let stderr, let status):
            return .stopped(.ended(stderr: stderr, status: status))
        case .hung:
            return isCancelled() ? .cancelled
                : .stopped(ShrinkFault(isInternalError: true, message: "the isolated worker's shrink went past its time "
                    + "budget and two run timeouts without answering, and was killed"))
        }
    }
}

extension IsolatedWorker {
    /// Runs a shrink request in this child (``IsolatedShrinkWire``) and writes its answer. The
    /// shrinker's own code runs as harness work on `slot` (a fault there is an internal error,
    /// exit ``CrashSignals/internalErrorExitCode``); each candidate is a run of its own (a crash
    /// there is the workload's, exit 70); the hang watchdog times both. The answer goes to
    /// `answers` (the worker's answer descriptor).
    static func shrink(_ request: IsolatedShrinkWire.ShrinkRequest, on target: some CampaignTarget, slot: CrashSlot?,
                       answers: Int32) {
        if let timeout = request.runTimeoutMilliseconds, CrashSignals.isInstalled {
            RunWatchdog.start(timeoutSeconds: Double(timeout) / 1_000, exitCode: RunWatchdog.exitCode)
        }
        slot?.beginHarness(" while shrinking a failure of \(request.invariant) in an isolated worker\n")
        InjectedFault.atShrinkStart()
        let invariant = request.invariant
        let result = Shrinker.shrink(request.choices, target: CrashSlotTarget(target), while: invariant,
                                     options: request.options)
        slot?.endHarness()
        SignalSafeOutput.write(answers, Array(IsolatedShrinkWire.answer(result).utf8))
    }
}
