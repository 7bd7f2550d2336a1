import DeterministicSimulation
import SimulationFormats

extension RunOutcome {
    /// The run's trace as `bgsim replay` prints it: one line per event (virtual time, app state,
    /// the simulated thread it happened on, event and fields; violations marked `>>`), then the
    /// digest, the stop and each violation. The thread column appears only in a run with
    /// controlled concurrency; `-` there marks an event outside every job (the run's start and
    /// end). Empty of events when the run did not keep its trace (campaign runs do not; replays
    /// do).
    ///
    /// ```swift
    /// let outcome = campaign.replay(seed: 0x9e3779b97f4a7c15)
    /// print(outcome.traceText)
    /// //      1826.000000s  background  p1.main      task.expirationHandler  id=1
    /// //      1826.281020s  background  p1.global#1  task.endUnknown  id=0
    /// ```
    public var traceText: String {
        var lines: [String] = []
        var state = AppProcessState.notRunning
        let threadWidth = trace.lazy.compactMap(\.thread).map(\.count).max() ?? 0  // 0: no column
        for entry in trace {
            if case .stateChanged(_, let to) = entry.event { state = to }
            let fields = entry.event.fields.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            let marker = entry.event.name == "violation" ? ">>" : "  "
            let stateColumn = state.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
            let threadColumn = threadWidth == 0 ? ""
                : (entry.thread ?? "-").padding(toLength: threadWidth, withPad: " ", startingAt: 0) + "  "
            let time = entry.time.description
            lines.append("\(marker) \(String(repeating: " ", count: max(0, 14 - time.count)))\(time)  \(stateColumn)  "
                + "\(threadColumn)\(entry.event.name)\(fields.isEmpty ? "" : "  " + fields)")
        }
        lines.append("digest \(digest), \(eventCount) events, ended \(stop.rawValue) at \(endTime)")
        if violations.isEmpty { lines.append("no invariant violated") }
        for violation in violations {
            lines.append("VIOLATION \(violation.invariant) at \(violation.time): \(violation.message)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The run's trace in the Chrome trace-event format (ui.perfetto.dev, chrome://tracing), as
    /// `bgsim replay --perfetto FILE` writes it.
    ///
    /// ```swift
    /// try outcome.perfettoJSON.write(toFile: "run.perfetto.json", atomically: true, encoding: .utf8)
    /// ```
    public var perfettoJSON: String {
        JSONWriter(style: .compact).string(for: PerfettoTrace.json(trace))
    }

    /// The run as a trace file (``TraceFile``): a header (digest, events, how it ended, its
    /// violations), then the events, as `bgsim replay --trace FILE` writes it (which adds the
    /// tool, the scenario and the replay command).
    public var traceJSON: String {
        JSONWriter().string(for: TraceFile.json(self, source: nil))
    }

    /// ``traceJSON`` with what the writer knows of the run's origin.
    package func traceJSON(source: TraceFile.Source) -> String {
        JSONWriter().string(for: TraceFile.json(self, source: source))
    }
}
