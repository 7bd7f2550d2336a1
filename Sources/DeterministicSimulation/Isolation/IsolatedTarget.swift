import SimulationRuntime

/// A campaign target whose runs happen in child processes (isolated workers, see
/// ``IsolatedWorker``), so a run that crashes or hangs is reported as a finding and the campaign
/// goes on: a crash becomes a ``crashInvariant`` (`no-crash`) violation whose message carries the
/// crash message and signal; a run that makes no progress for the wall-clock timeout is stopped
/// and becomes a ``hangInvariant`` (`no-hang`) violation.
///
/// ```swift
/// let isolated = IsolatedTarget(local: SimulationTarget(spec: spec), executable: "/proc/self/exe",
///                               arguments: ["_isolated-worker", "Scenarios/x.json"], runTimeoutSeconds: 10)
/// let result = Campaign.run(isolated, options: options)   // same totals, digest and coverage as local
/// ```
///
/// How: each campaign worker talks to one long-lived child (spawned on first use, again after a
/// crash or hang), one request line and one verdict line per run (``VerdictWire``), sent in
/// batches of ``preferredBatchSize``, so the cost is a pipe round trip per batch, not a process
/// start per run. The child runs `local`'s twin (the same
/// scenario loaded in the child), so a run that survives gives exactly the verdict `local`
/// would. A caller asking for a trace gets `local`'s in-process rerun of a run the child
/// survived (deterministic, so it survives here too); a crashing run has no trace.
///
/// Contract:
/// - For runs that neither crash nor hang, every verdict equals `local`'s, and the choices a
///   replaying source drew (``ChoiceSource/recorded``, ``ChoiceSource/actions``) are copied
///   back, so campaigns, follow-ups and the shrinker read the same results for every `jobs`.
/// - A crashed run's choices are those it drew before the signal (the child's handler writes
///   them), so the shrinker replays and shrinks crashes like any failure, each candidate in a
///   child. A failure that did not crash is shrunk whole in one child
///   (``shrinkInChild(_:invariant:options:isCancelled:)``): the shrinker and its candidates run
///   there in process (a round trip per candidate made `bgsim check` half again as slow), and a
///   trap or hang of either ends only that child; the failure then stands unshrunk. A crashed
///   run's verdict has no events and a digest made of the draw count, signal and message
///   (deterministic).
/// - A hung run, one that made no progress (no scheduler step) for `runTimeoutSeconds` of
///   wall-clock time, is stopped by the child's own ``RunWatchdog`` (the rule of a campaign
///   without isolation; the parent sends the timeout as each child's first line and waits for
///   verdicts without a deadline, since it cannot see a run's steps); a slow run that keeps
///   stepping is never stopped. The same request is not run again (each would cost the
///   timeout): its verdict is remembered, and a hang is never shrunk (``RunStop/timedOut``).
/// - Once a run has hung, later runs are given less: ``ChildPool/laterTimeout(full:slowestRun:)``,
///   20 times the slowest run that finished so far (timed here, from request to verdict), at
///   least 1 s, never more than the run timeout, told to each child before its next runs. Each
///   hang costs that much rather than the whole run timeout (a workload that hangs in most of
///   200 runs cost over three hours at 60 s), and the message of such a hang names the shorter
///   limit. Shrinks in a child keep the whole run timeout.
/// - Wall-clock time decides nothing else. Children end at ``finishChildren()`` or when the
///   target's last copy is released.
package struct IsolatedTarget<Local: CampaignTarget>: CampaignTarget {
    /// The invariant id of a crashed run.
    public static var crashInvariant: String { "no-crash" }
    /// The invariant id of a run stopped after making no progress for the run timeout.
    public static var hangInvariant: String { "no-hang" }

    /// The same target in this process: traces of surviving runs come from it.
    public let local: Local
    let pool: ChildPool
    /// The front end's words, for a crash's and a hang's message (``CrashWording``).
    let wording: CrashWording

    /// - Parameters:
    ///   - local: the target the children run (they build it from `arguments`).
    ///   - executable: the program to start (`/proc/self/exe`: this one).
    ///   - arguments: its arguments, which make it an isolated worker for `local`'s twin.
    ///   - environment: entries (`NAME=value`) added to its environment.
    ///   - runTimeoutSeconds: the wall-clock time a run may go without progress; nil for none.
    ///   - startTimeoutSeconds: how long a new child may take to begin serving (nil: the run
    ///     timeout, at least 30 s: a test process runs its test up to the campaign first, and a
    ///     loaded machine starts processes slowly; no limit without a run timeout).
    ///   - wording: the front end's words: its program's name and run-timeout setting, named in
    ///     crash and hang messages.
    public init(local: Local, executable: String, arguments: [String], environment: [String] = [],
                runTimeoutSeconds: Double?, startTimeoutSeconds: Double? = nil, wording: CrashWording = CrashWording()) {
        self.local = local
        self.wording = wording
        let start = startTimeoutSeconds ?? runTimeoutSeconds.map { max($0, 30) }
        pool = ChildPool(executable: executable, arguments: arguments, environment: environment,
                         timeoutMilliseconds: runTimeoutSeconds.map { max(1, Int($0 * 1_000)) },
                         startTimeoutMilliseconds: start.map { max(1, Int($0 * 1_000)) },
                         startAdvice: wording.workerStartAdvice)
    }

    /// How many child processes were started so far (one per worker, plus one per crash or hang).
    package var childrenStarted: Int { pool.started.load(ordering: .relaxed) }

    /// Ends the idle children now (they exit at the end of their input) and reaps them; a later
    /// run starts new ones. Call it when the campaign is over: closures of finished worker
    /// threads may keep a copy of the target, and so the children, alive for a while.
    package func finishChildren() {
        pool.finishIdle()
    }

    public func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
        run(choices: choices, keepTrace: keepTrace, budget: nil)
    }

    /// Campaign workers hand over 32 runs at a time: one write of 32 requests, then 32 verdicts
    /// read as they come, instead of a round trip per run (on a loaded 2-core machine every
    /// round trip waited for a CPU twice: `bgsim check` took twice as long isolated).
    public var preferredBatchSize: Int { 32 }

    /// The runs of `seeds` in a child, in order; after a crash or a hang the rest go to a new one.
    public func run(seeds: [Seed]) -> [RunVerdict] {
        run(requests: seeds.map { VerdictWire.request(seed: $0, record: false, budget: nil) }, sources: nil)
    }

    /// The runs of `sources` in a child, in order, each source adopting what its run drew.
    public func run(batch sources: [ChoiceSource]) -> [RunVerdict] {
        run(requests: sources.map { Self.request($0, record: true, budget: nil) }, sources: sources)
    }

    /// The request that runs `choices` in a child: from its seed, its mutant plan, or its replay.
    private static func request(_ choices: ChoiceSource, record: Bool, budget: Int?) -> String {
        choices.seed.map { VerdictWire.request(seed: $0, record: record, budget: budget) }
            ?? choices.fillSeed.map { VerdictWire.request(plan: ChoiceSequence(choices.replayValues), filling: $0,
                                                          record: record, budget: budget) }
            ?? VerdictWire.request(choices: ChoiceSequence(choices.replayValues), record: record, budget: budget)
    }

    /// The runs of `requests` in a child; after a crash or a hang the rest go to a new one. With
    /// `sources`, each adopts what its run drew (the answers carry it).
    private func run(requests all: [String], sources: [ChoiceSource]?) -> [RunVerdict] {
        var verdicts: [RunVerdict] = []
        verdicts.reserveCapacity(all.count)
        var pending = all[...]
        while !pending.isEmpty {
            let requests = Array(pending)
            let source = { (index: Int) in sources?[all.count - pending.count + index] }
            if let hang = pool.knownHang(requests[0]) {
                verdicts.append(hang)
                pending = pending.dropFirst()
                continue
            }
            let child: ChildConnection
            do {
                child = try pool.take()
            } catch {
                verdicts.append(Self.crashVerdict(message: "the isolated worker could not start: \(error)", signal: nil, drawn: 0))
                pending = pending.dropFirst()
                continue
            }
            var sent = RealClock.monotonicNanoseconds()
            let exchange = child.send(requests.joined()) ? nil : child.receive(timeoutMilliseconds: nil)  // gone: EOF
            var alive = exchange == nil
            var index = 0
            while alive && index < requests.count {
                let answer = child.receive(timeoutMilliseconds: nil)  // the child's watchdog times it
                if case .line = answer { pool.noteFinished(since: &sent) }
                let verdict = self.verdict(for: answer, request: requests[index], child: child, alive: &alive,
                                           source: source(index))
                verdicts.append(verdict)
                index += 1
            }
            if let exchange, index == 0 {  // the child was gone before it read anything
                var unused = false
                verdicts.append(verdict(for: exchange, request: requests[0], child: child, alive: &unused,
                                        source: source(0)))
                index = 1
            }
            pending = pending.dropFirst(index)
            if alive { pool.give(child) }
        }
        return verdicts
    }

    /// The verdict of one answer; `alive` false when the child is gone (crashed, hung, broken).
    private func verdict(for answer: ChildConnection.Exchange, request: String, child: ChildConnection,
                         alive: inout Bool, source: ChoiceSource? = nil) -> RunVerdict {
        switch answer {
        case .line(let line):
            do {
                let (verdict, recorded) = try child.decoder.verdict(line)
                if let source, let recorded {
                    source.adopt(outcomes: recorded.outcomes, actions: recorded.actions, idleSteps: recorded.idleSteps,
                                 fallbackCount: recorded.fallbackCount)
                }
                return verdict
            } catch {
                child.abandon()
                alive = false
                return Self.crashVerdict(message: error.description, signal: nil, drawn: 0)
            }
        case .died(let dump, let signal, let stderr, let status):
            alive = false
            if Self.isHang(stderr: stderr, status: status) { return hangVerdict(request, child: child, stderr: stderr) }
            if let source, let dump {
                source.adopt(outcomes: dump.outcomes, actions: dump.actions, idleSteps: dump.idleSteps,
                             fallbackCount: dump.fallbackCount)
            }
            return Self.crashVerdict(message: CrashMessage.text(stderr: stderr, signal: signal, status: status),
                                     signal: signal, drawn: dump?.outcomes.count ?? 0)
        case .hung:
            alive = false
            return hangVerdict(request, child: child)
        }
    }

    /// The verdict of a run that `child`'s watchdog stopped; later runs get less time from now on.
    private func hangVerdict(_ request: String, child: ChildConnection, stderr: String = "") -> RunVerdict {
        let full = pool.timeoutMilliseconds ?? 0
        let limit = child.watchdogMilliseconds ?? full
        let seconds = CrashMessage.seconds(Double(limit) / 1_000)
        let why = limit < full
            ? " (after an earlier run hung, later runs get \(ChildPool.laterTimeoutFactor) times the slowest run that "
                + "finished, at least \(CrashMessage.seconds(Double(ChildPool.laterTimeoutFloor) / 1_000)) s, up to the "
                + "run timeout of \(CrashMessage.seconds(Double(full) / 1_000)) s\(wording.timeoutNote))"
            : wording.timeoutNote
        let verdict = RunVerdict(
            digest: TraceDigest(Self.hash("hang")), eventCount: 0, simulatedTime: .zero,
            failures: [Violation(invariant: Self.hangInvariant, message: "the run made no progress (no job started, "
                + "no thread resumed) for \(seconds) s of wall-clock time\(why) and was "
                + "stopped: an endless loop or a wait on something outside the simulator in workload code"
                + (CrashWording.stuckCode(inStderr: stderr).map { "; it was in \($0)" } ?? ""), time: .zero)],
            stop: .timedOut, cost: 0)
        pool.rememberHang(request, verdict)
        return verdict
    }

    public func run(choices: ChoiceSource, keepTrace: Bool, costBudget: Int) -> RunVerdict {
        run(choices: choices, keepTrace: keepTrace, budget: costBudget)
    }

    private func run(choices: ChoiceSource, keepTrace: Bool, budget: Int?) -> RunVerdict {
        let request = Self.request(choices, record: choices.isReplaying && !keepTrace, budget: budget)
        if let hang = pool.knownHang(request) { return hang }
        let child: ChildConnection
        do {
            child = try pool.take()
        } catch {
            return Self.crashVerdict(message: "the isolated worker could not start: \(error)", signal: nil, drawn: 0)
        }
        var sent = RealClock.monotonicNanoseconds()
        let answer = child.exchange(request, timeoutMilliseconds: nil)  // the child's watchdog times it
        switch answer {
        case .line(let line):
            pool.noteFinished(since: &sent)
            let decoded: (RunVerdict, VerdictWire.Recorded?)
            do {
                decoded = try child.decoder.verdict(line)
            } catch {
                child.abandon()
                return Self.crashVerdict(message: error.description, signal: nil, drawn: 0)
            }
            pool.give(child)
            if keepTrace {
                return budget.map { local.run(choices: choices, keepTrace: true, costBudget: $0) }
                    ?? local.run(choices: choices, keepTrace: true)
            }
            if let recorded = decoded.1 {
                choices.adopt(outcomes: recorded.outcomes, actions: recorded.actions, idleSteps: recorded.idleSteps,
                              fallbackCount: recorded.fallbackCount)
            }
            return decoded.0
        case .died(let dump, let signal, let stderr, let status):
            if Self.isHang(stderr: stderr, status: status) { return hangVerdict(request, child: child, stderr: stderr) }
            if let dump {
                choices.adopt(outcomes: dump.outcomes, actions: dump.actions, idleSteps: dump.idleSteps,
                              fallbackCount: dump.fallbackCount)
            }
            return Self.crashVerdict(message: CrashMessage.text(stderr: stderr, signal: signal, status: status),
                                     signal: signal, drawn: dump?.outcomes.count ?? 0)
        case .hung:
            return hangVerdict(request, child: child)
        }
    }

    /// Whether a child ended by its watchdog's verdict on a run that made no progress: its exit
    /// code (``IsolatedWorker/hangExitCode``) after its `PROGRAM: HANG:` banner (a workload that
    /// calls `exit(124)` itself is a crash).
    static func isHang(stderr: String, status: Int32) -> Bool {
        status & 0x7f == 0 && (status >> 8) & 0xff == IsolatedWorker.hangExitCode && stderr.contains(CrashWording.hangOpening)
    }

    static func crashVerdict(message: String, signal: Int32?, drawn: Int) -> RunVerdict {
        RunVerdict(digest: TraceDigest(hash("crash \(signal ?? 0) \(drawn) \(message)")), eventCount: 0,
                   simulatedTime: .zero,
                   failures: [Violation(invariant: crashInvariant, message: message, time: .zero)],
                   stop: .crashed, cost: drawn)
    }

    /// FNV-1a over the text's bytes: a stable digest for verdicts that have no trace.
    static func hash(_ text: String) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return value
    }
}
