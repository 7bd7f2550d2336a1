import DeterministicSimulation
import Testing

/// Reads the flag on the simulated main actor: a hop from a task is an enqueued main-queue job.
@SimulatedMainActor
func readOnMainActor(_ world: RaceWorld) {
    world.read()
}

/// Race detection with Swift tasks and main-actor hops, and its determinism: the same seed gives
/// the same races, detection changes no draw, and the race digest is pinned across processes.
@Suite("Race detection: tasks, main-actor hops and determinism")
struct RaceDetectionAsyncTests {
    /// A main-queue job writes the flag and starts a task; the task reads and writes it, then
    /// hops to the main actor to read it; `racy` adds a main-queue job the driver enqueued
    /// that writes it too, which nothing orders with the task (it runs before the hop, after
    /// the job that started the task).
    static func hops(_ world: RaceWorld, racy: Bool) {
        let s = world.scheduler
        let tasks = s.enableAsync(taskWidth: 2)
        s.async(on: s.mainQueue) {
            world.write()
            Task(executorPreference: tasks) {
                world.read()
                world.write()
                await readOnMainActor(world)
            }
        }
        if racy { s.async(on: s.mainQueue) { world.write() } }
    }

    @Test("a task started by a job and its hop to the main actor are ordered with that job; a stray job races")
    func mainActorHop() {
        for threads in [RaceWorld.walk, nil] {
            for racy in [false, true] {
                for (seed, races) in RaceDetectionTests.sweep(threads: threads, { Self.hops($0, racy: racy) }) {
                    if racy {
                        #expect(!races.isEmpty, "seed: \(seed)")
                        #expect(races.allSatisfy { [$0.first.thread, $0.second.thread].contains { $0.hasPrefix("tasks") } },
                                "seed: \(seed): \(races)")
                    } else {
                        #expect(races.isEmpty, "seed: \(seed): \(races)")
                    }
                }
            }
        }
    }

    /// The races of the racy-flag run of each seed of the sweep, as text.
    static func raceTexts(detects: Bool = true) -> [[String]] {
        RaceWorld.seeds(RaceDetectionTests.sweep, campaign: RaceDetectionTests.campaign).map { seed in
            let world = RaceWorld(seed: seed)
            RaceDetectionTests.racyFlag(world)
            return world.run().map(\.description)
        }
    }

    @Test("the same seed gives the same races, and the race digest is pinned (the same in every process)")
    func deterministic() {
        let first = Self.raceTexts()
        #expect(first == Self.raceTexts())
        var hasher = StableHasher()
        for races in first {
            for race in races { hasher.combine(race) }
        }
        #expect(Set(first.map { $0.first ?? "" }).count > 1, "the order of the two accesses should vary with the seed")
        #expect(hasher.finalize() == 1_187_806_778_592_200_161, "campaign \(Seed(RaceDetectionTests.campaign))")
    }

    @Test("detection changes no decision: the same seed draws the same choices with it on or off")
    func changesNoDraw() {
        for seed in RaceWorld.seeds(20, campaign: RaceDetectionTests.campaign) {
            var recorded: [ChoiceSequence] = []
            for detects in [true, false] {
                let choices = ChoiceSource(seed: seed)
                let scheduler = Scheduler(choices: choices)
                scheduler.enableControlledConcurrency(RaceWorld.walk, pool: SimulatedThreadPool())
                if detects { scheduler.enableRaceDetection(checkingPlainAccesses: false) }  // the named model alone: the flags below are plain too
                let flag = RaceWorld.Flag()
                let background = scheduler.makeQueue(label: "background", kind: .serial)
                scheduler.async(on: background) {
                    scheduler.recordSharedAccess(.write, to: ObjectIdentifier(flag), name: "flag")
                }
                scheduler.async(on: scheduler.mainQueue) {
                    scheduler.recordSharedAccess(.read, to: ObjectIdentifier(flag), name: "flag")
                }
                _ = scheduler.runUntilIdle()
                #expect(scheduler.dataRaces.isEmpty == !detects, "seed: \(seed)")
                scheduler.discardPendingJobs()
                recorded.append(choices.recorded)
            }
            #expect(recorded[0] == recorded[1], "seed: \(seed)")
        }
    }
}
