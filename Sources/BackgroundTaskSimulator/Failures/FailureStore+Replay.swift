public import DeterministicSimulation

extension FailureStore {
    /// Replays every saved failure of `scenario` (its shrunk choices, one run each, as a run of
    /// the strategy that saved it) and keeps those that still violate their invariant; with
    /// `dropsFixed` (a campaign that maintains the store) it removes the others, except one saved
    /// under another ``ChoiceMeaning`` (its choices now mean another run: kept, reported as
    /// ``SavedFailureReplay/savedUnderOtherChoices``). With `isolated`
    /// (an isolated campaign's: the target of child processes for the scenario of one strategy)
    /// every replay runs in a child; without it a saved crash or hang (``Invariant/processLevel``)
    /// is not replayed, since it would end this process: it is kept (``SavedFailureReplay/notReplayed``).
    ///
    /// ```swift
    /// let replay = try store.replay(scenario, dropsFixed: false)
    /// replay.stillFailing.map(\.invariant)   // ["every-begin-ended"]
    /// ```
    ///
    /// - Throws: ``FailureStoreError`` when the store cannot be read, or
    ///   (``FailureStoreError/Kind/uncheckedInvariant``) when a saved failure names an invariant
    ///   the scenario does not check (so its replay could never show it again).
    public func replay(_ scenario: Scenario, dropsFixed: Bool,
                       isolated: ((Scenario) -> any CampaignTarget)? = nil) throws(FailureStoreError) -> SavedFailureReplay {
        var replay = SavedFailureReplay(dropsFixed: dropsFixed)
        let checked = scenario.invariants.map(\.id) + Invariant.processLevel.map(\.id)
        for entry in try entries(of: scenario.name) {
            let saved = entry.failure
            guard checked.contains(saved.invariant) else {
                throw FailureStoreError(.uncheckedInvariant, "\(entry.location): $.invariant: \"\(saved.invariant)\" is "
                    + "not an invariant scenario \(scenario.name) checks "
                    + "(\(scenario.invariants.map(\.id).joined(separator: ", ")))")
            }
            let violations: [Violation]
            if let isolated {
                var run = scenario
                run.strategyOverride = saved.strategy  // the choices mean a run of the strategy that saved them
                violations = isolated(run).run(choices: ChoiceSource(replaying: saved.choices), keepTrace: false).failures
            } else if Invariant.processLevel.contains(where: { $0.id == saved.invariant }) {
                replay.notReplayed.append(saved)
                continue
            } else {
                var spec = scenario.runSpec
                spec.exploration = saved.strategy
                violations = SimulationRunner.run(spec, choices: ChoiceSource(replaying: saved.choices),
                                                  keepTrace: false).violations
            }
            replay.replayed += 1
            if violations.contains(where: { $0.invariant == saved.invariant }) {
                replay.stillFailing.append(saved)
            } else if saved.choiceMeaning != ChoiceMeaning.current {
                // Saved under another use of choices: its replay is another run now, which says
                // nothing about the bug. Kept, never taken for fixed.
                replay.savedUnderOtherChoices.append(saved)
            } else {
                if dropsFixed { remove(entry) }
                replay.noLongerFailing.append(saved)
            }
        }
        return replay
    }

    /// Saves the campaign's failures that go against the scenario's expectation (every failure of
    /// a scenario that expects to pass; none of a planted-bug scenario, whose violations are what
    /// it asks for), unless a saved failure of the same invariant still fails. Returns what it saved.
    public func save(_ result: CampaignResult, of scenario: Scenario, keeping replay: SavedFailureReplay,
                     toolVersion: String) throws(FailureStoreError) -> [SavedFailure] {
        guard scenario.expectation == .pass else { return [] }
        let kept = replay.stillFailing.map(\.invariant)
        var saved: [SavedFailure] = []
        for record in result.failures where !kept.contains(record.failure.invariant) {
            let failure = SavedFailure(scenarioName: scenario.name, scenarioFile: scenario.file,
                                       invariant: record.failure.invariant, message: record.failure.message,
                                       choices: record.choices, seed: record.seed, campaignSeed: result.options.seed,
                                       toolVersion: toolVersion, strategy: scenario.forRun(record.runIndex).strategy)
            try save(failure)
            saved.append(failure)
        }
        return saved
    }
}

/// What replaying a scenario's saved failures gave.
public struct SavedFailureReplay: Sendable, Equatable {
    /// Whether the saved failures that no longer fail were removed (`fuzz`) or kept (`check`).
    public var dropsFixed = false
    public var replayed = 0
    /// Saved failures that still violate their invariant (kept).
    public var stillFailing: [SavedFailure] = []
    /// Saved failures that no longer do (removed when ``dropsFixed``).
    public var noLongerFailing: [SavedFailure] = []
    /// Saved crashes and hangs a campaign in process did not replay (it would have ended the
    /// process): kept, unjudged.
    public var notReplayed: [SavedFailure] = []
    /// Saved failures that no longer fail but were saved under another ``ChoiceMeaning`` (an
    /// older engine): their choices replay another run now, so they are kept, never dropped as
    /// fixed; the campaign's own runs find the bug again or not. Delete one once its bug is fixed.
    public var savedUnderOtherChoices: [SavedFailure] = []

    public init(dropsFixed: Bool = false) {
        self.dropsFixed = dropsFixed
    }
}

extension SavedFailureReplay {
    /// One line on what replaying the saved failures showed.
    ///
    /// ```swift
    /// replay.summary()   // "replayed 2 saved failures: 1 still fail (every-begin-ended); 1 no longer fails, dropped"
    /// readOnly.summary(droppedBy: "fuzz")   // "…; 1 no longer fails (fuzz drops it)"
    /// ```
    ///
    /// - Parameter droppedBy: who removes a fixed failure that this campaign only read (a store
    ///   it did not maintain: `bgsim check`, a read-only gate).
    public func summary(droppedBy: String = "a campaign that saves failures") -> String {
        let names = stillFailing.isEmpty ? "" : " (" + stillFailing.map(\.invariant).joined(separator: ", ") + ")"
        let fixed = noLongerFailing.count
        let gone = fixed == 0 ? "" : "; \(fixed) no longer \(fixed == 1 ? "fails" : "fail")"
            + (dropsFixed ? ", dropped" : " (\(droppedBy) drops \(fixed == 1 ? "it" : "them"))")
        let kept = notReplayed.isEmpty ? ""
            : "; \(notReplayed.count) saved \(notReplayed.count == 1 ? "crash or hang" : "crashes or hangs") ("
                + notReplayed.map(\.invariant).joined(separator: ", ") + ") not replayed: it would end this process; "
                + "an isolated campaign replays \(notReplayed.count == 1 ? "it" : "them")"
        let other = savedUnderOtherChoices.count
        let older = other == 0 ? ""
            : "; \(other) saved by an older version (" + savedUnderOtherChoices.map(\.invariant).joined(separator: ", ")
                + ") no longer \(other == 1 ? "fails" : "fail") as replayed, since its choices now mean another run: kept, "
                + "not taken for fixed (delete \(other == 1 ? "its file" : "their files") once the bug is fixed)"
        return "replayed \(replayed) saved \(replayed == 1 ? "failure" : "failures"): \(stillFailing.count) still "
            + "\(stillFailing.count == 1 ? "fails" : "fail")\(names)\(gone)\(older)\(kept)"
    }
}
