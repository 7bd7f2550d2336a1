import DeterministicSimulation

extension Invariant {
    /// The invariants checked from outside a run's process, by isolation (`bgsim fuzz --isolate`,
    /// `bgsim check`): a run must not crash and must not hang. No event of the run can show
    /// either (a crashed run has no more events; an endless loop emits none), so their checkers
    /// watch nothing; ``IsolatedTarget`` reports the violations.
    ///
    /// ```swift
    /// Invariant.processLevel.map(\.id)   // ["no-crash", "no-hang"]
    /// ```
    ///
    /// Contract: not part of ``all`` (scenarios' `invariants` lists and in-process runs never
    /// include them); a scenario may expect them (`"expect": {"violation": "no-crash"}`), and such
    /// a scenario always runs isolated (``Scenario/needsIsolation``).
    public static let processLevel: [Invariant] = [
        Invariant(
            id: IsolatedTarget<SimulationTarget>.crashInvariant,
            rule: "Workload code never crashes: no fatalError, failed precondition, force unwrap of nil, index "
                + "out of range or bad memory access (a fatal signal) in any run. Checked in isolated runs; without "
                + "isolation a crash ends bgsim with exit code 70 after printing the run seed and replay command.",
            references: []
        ) { _ in WatchesNothing() },
        Invariant(
            id: IsolatedTarget<SimulationTarget>.hangInvariant,
            rule: "Every run finishes within the wall-clock run timeout (--run-timeout, 60 s by default): no endless "
                + "loop or wait on something outside the simulator. Checked in isolated runs; without isolation a "
                + "hang ends bgsim with exit code 124 after printing the run seed and replay command.",
            references: []
        ) { _ in WatchesNothing() },
    ]

    /// Whether this invariant is checked from outside the run's process (``processLevel``).
    public var isProcessLevel: Bool { Self.processLevel.contains { $0.id == id } }
}

/// The checker of a process-level invariant: its violations come from isolation, not events.
private final class WatchesNothing: InvariantChecker {
    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? { nil }
}

extension Scenario {
    /// Whether the scenario expects a crash or a hang: it then always runs isolated (in process,
    /// its planted bug would end the command or never return).
    public var needsIsolation: Bool {
        guard case .violation(let id) = expectation else { return false }
        return Invariant.processLevel.contains { $0.id == id }
    }
}

extension WorkloadCatalog.Variant {
    /// Whether the planted bug is a crash or a hang (tests that run variants in process skip it).
    public var needsIsolation: Bool {
        Invariant.processLevel.contains { $0.id == expectedViolation }
    }
}
