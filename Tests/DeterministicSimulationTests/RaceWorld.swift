import DeterministicSimulation

/// A run with race detection for the race tests: a scheduler (with simulated threads unless
/// told otherwise), one shared flag, and helpers that record its accesses.
final class RaceWorld: @unchecked Sendable {
    // @unchecked Sendable: touched only by the run's baton holder, like the scheduler; task
    // closures of the main-actor test capture it.

    /// The shared state: a plain stored property, as app code has it.
    final class Flag { var isSet = false }

    /// Random walk with frequent preemptions, so orders vary with the seed.
    static let walk = ConcurrencyConfiguration.randomWalk(preemptionRate: 0.3)

    let scheduler: Scheduler
    let flag = Flag()
    /// What the reads saw, in order.
    var seen: [Bool] = []

    /// A world on `seed`; `threads` nil runs jobs to completion one at a time (no threads).
    init(seed: Seed, threads: ConcurrencyConfiguration? = RaceWorld.walk, pool: SimulatedThreadPool? = nil) {
        scheduler = Scheduler(choices: ChoiceSource(seed: seed))
        if let threads { scheduler.enableControlledConcurrency(threads, pool: pool ?? SimulatedThreadPool()) }
        scheduler.enableRaceDetection(checkingPlainAccesses: false)  // the named model alone: the flags below are plain too
    }

    deinit { scheduler.discardPendingJobs() }

    /// Sets the flag, recording the write first.
    func write() {
        scheduler.recordSharedAccess(.write, to: ObjectIdentifier(flag), name: "didComplete")
        flag.isSet = true
    }

    /// Reads the flag, recording the read first.
    func read() {
        scheduler.recordSharedAccess(.read, to: ObjectIdentifier(flag), name: "didComplete")
        seen.append(flag.isSet)
    }

    /// Runs until idle and returns the races found.
    func run() -> [DataRace] {
        _ = scheduler.runUntilIdle(maxSteps: 10_000)
        return scheduler.dataRaces
    }

    /// The seeds of a sweep, labelled by index.
    static func seeds(_ count: Int, campaign: UInt64) -> [Seed] {
        (0..<count).map { Seed(campaign).derive(index: UInt64($0)) }
    }
}
