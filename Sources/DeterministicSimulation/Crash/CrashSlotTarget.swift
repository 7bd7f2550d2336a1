/// A target whose every run is timed on the calling thread's ``CrashSlot`` as a run of its
/// own: what a campaign's follow-up (reruns of a failure and its shrink, hundreds of runs of one
/// seed) runs, so the hang watchdog judges each run, not the whole shrink.
///
/// ```swift
/// let followUp = FailureFollowUp(target: CrashSlotTarget(target), …)
/// ```
///
/// Contract: the verdicts are exactly the wrapped target's; with no slot claimed on the thread
/// it adds one pthread key read per run.
struct CrashSlotTarget<Wrapped: CampaignTarget>: CampaignTarget {
    let wrapped: Wrapped

    init(_ wrapped: Wrapped) { self.wrapped = wrapped }

    func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
        let slot = CrashSlot.current
        slot?.beginAgain()
        defer { slot?.end() }
        return wrapped.run(choices: choices, keepTrace: keepTrace)
    }

    func shrinkInChild(_ recorded: ChoiceSequence, invariant: String, options: ShrinkOptions,
                       isCancelled: () -> Bool) -> ChildShrink? {
        wrapped.shrinkInChild(recorded, invariant: invariant, options: options, isCancelled: isCancelled)
    }

    func checking(only invariant: String) -> any CampaignTarget {
        let narrowed: any CampaignTarget = wrapped.checking(only: invariant)
        return Self.wrap(narrowed)
    }

    /// `narrowed` with the same crash slot marks (the existential opened).
    private static func wrap<Narrowed: CampaignTarget>(_ narrowed: Narrowed) -> any CampaignTarget {
        CrashSlotTarget<Narrowed>(narrowed)
    }

    func run(choices: ChoiceSource, keepTrace: Bool, costBudget: Int) -> RunVerdict {
        let slot = CrashSlot.current
        slot?.beginAgain()
        defer { slot?.end() }
        return wrapped.run(choices: choices, keepTrace: keepTrace, costBudget: costBudget)
    }
}
