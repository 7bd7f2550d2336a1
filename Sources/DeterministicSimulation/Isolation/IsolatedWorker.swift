#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import SimulationRuntime

/// The child's side of isolation: reads run requests on stdin, runs each on the target, writes
/// one verdict line per run on its answer descriptor (`WorkerAnswers`: 4 in a child of the
/// engine, so nothing the workload prints gets in; stdout by hand) (``VerdictWire``), until
/// stdin ends; a shrink request
/// (``IsolatedShrinkWire``) is shrunk here whole and answered with its result. A `watchdog`
/// line (the parent's first, when it has a run timeout) starts this process's ``RunWatchdog``:
/// a run that makes no progress for that long ends the child with ``hangExitCode`` after its
/// `bgsim: HANG` banner, which the parent reads as a hang (it cannot see a run's steps).
///
/// ```swift
/// // bgsim's hidden `_isolated-worker SCENARIO` command:
/// CrashSignals.install(exitCode: 70)
/// IsolatedWorker.serve(SimulationTarget(spec: scenario.runSpec), banner: banner)
/// ```
///
/// Contract: the answer descriptor carries the ``VerdictWire/ready`` line first (a child that
/// ends before it never served: a tool that is no worker, a test process that never reached its
/// campaign), then nothing but verdict lines (written with `write(2)`,
/// unbuffered, so a crash loses none) and, on a crash, the handler's dump of the run's choices; every run's
/// source sits in the worker's ``CrashSlot`` for that dump. Returns the process exit code: 0 at
/// end of input, 65 for a request it cannot read.
package enum IsolatedWorker {
    /// The exit code of a child whose watchdog found a run that made no progress.
    static let hangExitCode: Int32 = 124

    package static func serve(_ target: some CampaignTarget, banner: CrashBanner) -> Int32 {
        let answers = WorkerAnswers.descriptor
        CrashSignals.dumpDescriptor = answers
        SignalSafeOutput.write(answers, Array(VerdictWire.ready.utf8))  // the parent waits for it
        var slot = CrashSlot.claim(banner)
        defer { slot?.release() }
        var encoder = VerdictWire.Encoder()
        var requests = DescriptorLines(0)
        while let line = requests.next() {
            let request: VerdictWire.Request
            switch VerdictWire.parseMessage(line[...]) {
            case .run(let run)?:
                request = run
            case .watchdog(let milliseconds)?:
                RunWatchdog.start(timeoutSeconds: Double(milliseconds) / 1_000, exitCode: hangExitCode)
                slot = slot ?? CrashSlot.claim(banner)  // the watchdog put slots in use
                continue
            case .shrink(let shrinkRequest)?:
                shrink(shrinkRequest, on: target, slot: slot, answers: answers)
                continue
            case nil:
                return 65
            }
            let source = request.seed.map { ChoiceSource(seed: $0) }
                ?? request.fillSeed.map { ChoiceSource(replaying: request.choices!, filling: $0) }
                ?? ChoiceSource(replaying: request.choices!)
            slot?.source = source
            slot?.stderrOffset = WorkerAnswers.stderrOffset()
            slot?.begin(request.seed ?? Seed(0))
            let verdict = request.budget.map { target.run(choices: source, keepTrace: false, costBudget: $0) }
                ?? target.run(choices: source, keepTrace: false)
            slot?.end()
            slot?.source = nil
            let recorded = request.record
                ? VerdictWire.Recorded(outcomes: source.recorded.values, actions: source.actions,
                                       idleSteps: source.idleSteps, fallbackCount: source.fallbackCount)
                : nil
            let text = encoder.line(verdict, recorded: recorded)
            SignalSafeOutput.write(answers, Array(text.utf8))
        }
        return 0
    }
}
