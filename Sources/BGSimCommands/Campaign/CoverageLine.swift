import DeterministicSimulation

/// The summary's one line of coverage: how many (app state, event) pairs the campaign reached
/// and which invariant-relevant conditions, with counts (the report's `stateEvents` and
/// `conditions`; probes have their own line).
///
/// ```swift
/// CoverageLine.text(result.coverage)
/// // "  coverage: 212 of 450 state/event pairs; conditions: expiry-with-task-held 40x, ... (2 of 6 never)"
/// ```
///
/// Contract: `nil` when the coverage has neither category (a target other than the simulator).
enum CoverageLine {
    static func text(_ coverage: Coverage) -> String? {
        let pairs = coverage.entries("stateEvents")
        let conditions = coverage.entries("conditions")
        guard !pairs.isEmpty || !conditions.isEmpty else { return nil }
        var line = "  coverage: \(pairs.filter { $0.count > 0 }.count) of \(pairs.count) state/event pairs"
        let reached = conditions.filter { $0.count > 0 }
        line += "; conditions: " + (reached.isEmpty ? "none" : reached.map { "\($0.name) \($0.count)x" }.joined(separator: ", "))
        let never = conditions.count - reached.count
        if never > 0 { line += " (\(never) of \(conditions.count) never)" }
        return line
    }
}
