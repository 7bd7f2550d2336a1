import DeterministicSimulation
import Testing

/// Data races over simulated threads: each happens-before edge of the engine orders its twin, and
/// two unordered accesses (one a write) are reported whatever order the run made them in.
@Suite("Race detection: happens-before from every synchronisation")
struct RaceDetectionTests {
    static let campaign: UInt64 = 0xace0_0000_0000_0036
    static let sweep = 60

    /// Runs `build` on a world per seed of the sweep (threads or not) and returns each run's races.
    static func sweep(
        threads: ConcurrencyConfiguration? = RaceWorld.walk, _ build: (RaceWorld) -> Void
    ) -> [(Seed, [DataRace])] {
        let pool = SimulatedThreadPool()
        return RaceWorld.seeds(sweep, campaign: campaign).map { seed in
            let world = RaceWorld(seed: seed, threads: threads, pool: threads == nil ? nil : pool)
            build(world)
            return (seed, world.run())
        }
    }

    /// The racy flag: a background queue sets it, main reads it, and nothing orders the two.
    static func racyFlag(_ world: RaceWorld) {
        let s = world.scheduler
        let background = s.makeQueue(label: "background", kind: .serial)
        s.async(on: background) { world.write() }
        s.async(on: s.mainQueue) { world.read() }
    }

    @Test("a flag set on a background queue and read on main, unordered, is a race in every run")
    func flagRace() {
        for threads in [RaceWorld.walk, nil] {
            for (seed, races) in Self.sweep(threads: threads, Self.racyFlag) {
                #expect(races.count == 1, "seed: \(seed)")
                guard let race = races.first else { continue }
                #expect(race.location == "didComplete", "seed: \(seed)")
                #expect(Set([race.first.kind, race.second.kind]) == [.read, .write], "seed: \(seed)")
                #expect(Set([race.first.thread, race.second.thread]) == ["background", "main"], "seed: \(seed)")
            }
        }
    }

    @Test("one variable raced by one pair of threads is one race, whatever the access kinds and order")
    func oneRacePerPairOfThreads() {
        // The stored-id shape: a worker writes the id; main reads it, then clears it. Three
        // unordered pairs (write/read, write/write, and the worker's second write after main's),
        // one unguarded variable, one fix: one report.
        for (seed, races) in Self.sweep({ world in
            let s = world.scheduler
            let background = s.makeQueue(label: "background", kind: .serial)
            s.async(on: background) { world.write(); world.write() }
            s.async(on: s.mainQueue) { world.read(); world.write() }
        }) {
            #expect(races.count == 1, "seed: \(seed): \(races)")
        }
    }

    @Test("a race is reported even when the run did not misbehave: the read saw the write, in order")
    func raceWithoutMisbehaviour() {
        // No preemption, and main's job runs second: the check-then-act happens to work.
        let world = RaceWorld(seed: Seed(1), threads: .blockingOnly)
        let s = world.scheduler
        let background = s.makeQueue(label: "background", kind: .serial)
        s.async(on: s.mainQueue) { s.async(on: background) { world.write() } }
        s.asyncAfter(.seconds(1), on: s.mainQueue) { world.read() }
        let races = world.run()
        #expect(world.seen == [true])
        #expect(races.map(\.description) == [
            "'didComplete': a write on background (job 3) at 0.000000s and a read on main (job 2) at 1.000000s are "
                + "not ordered by any queue hand-off, lock, semaphore or actor hop",
        ])
    }

    @Test("handing off with async orders the write before the read: no race")
    func asyncHandOff() {
        for threads in [RaceWorld.walk, nil] {
            for (seed, races) in Self.sweep(threads: threads, { world in
                let s = world.scheduler
                let background = s.makeQueue(label: "background", kind: .serial)
                s.async(on: background) {
                    world.write()
                    s.asyncAfter(.milliseconds(5), on: s.mainQueue) { world.read() }
                }
            }) {
                #expect(races.isEmpty, "seed: \(seed): \(races)")
            }
        }
    }

    @Test("two jobs of a serial queue are ordered; of a concurrent queue, even of width 1 run in turn, they are not")
    func serialQueueOrder() {
        for threads in [RaceWorld.walk, .blockingOnly, nil] {
            for kind in [QueueKind.serial, .concurrent(width: 1), .concurrent(width: 2)] {
                for (seed, races) in Self.sweep(threads: threads, { world in
                    let s = world.scheduler
                    let queue = s.makeQueue(label: "db", kind: kind)
                    s.async(on: queue) { world.write() }
                    s.async(on: queue) { world.read() }
                }) {
                    #expect(races.count == (kind == .serial ? 0 : 1), "seed: \(seed), \(kind): \(races)")
                }
            }
        }
    }

    @Test("a serial queue's order is transitive: what came before its earlier job comes before its later one")
    func serialQueueOrderIsTransitive() {
        for threads in [RaceWorld.walk, nil] {
            for (seed, races) in Self.sweep(threads: threads, { world in
                let s = world.scheduler
                let background = s.makeQueue(label: "background", kind: .serial)
                let db = s.makeQueue(label: "db", kind: .serial)
                s.async(on: background) {
                    world.write()
                    s.async(on: db) {}  // after the write, and before the read on the same queue
                }
                // Enqueued by the driver: ordered after the write only through db's earlier job.
                s.asyncAfter(.seconds(60), on: db) { world.read() }
            }) {
                #expect(races.isEmpty, "seed: \(seed): \(races)")
            }
        }
    }

    @Test("sync orders both ways: the caller's past before the block, the block before the caller's future")
    func syncBothWays() {
        for (seed, races) in Self.sweep({ world in
            let s = world.scheduler
            let background = s.makeQueue(label: "background", kind: .serial)
            s.async(on: background) {
                world.write()
                s.sync(on: s.mainQueue) {
                    world.read()
                    world.write()
                }
                world.read()
            }
        }) {
            #expect(races.isEmpty, "seed: \(seed): \(races)")
        }
    }

    @Test("sync run on the caller holding a serial queue is ordered with that queue's jobs")
    func syncOnCallerOrder() {
        for (seed, races) in Self.sweep({ world in
            let s = world.scheduler
            let db = s.makeQueue(label: "db", kind: .serial)
            let background = s.makeQueue(label: "background", kind: .serial)
            s.async(on: db) { world.write() }
            s.async(on: background) {
                s.sync(on: db, runsOnCallerWhenFree: true) { world.write() }
            }
            s.asyncAfter(.milliseconds(1), on: db) { world.read() }
        }) {
            #expect(races.isEmpty, "seed: \(seed): \(races)")
        }
    }

    @Test("a lock orders what its holders do; the same accesses without it race")
    func lockOrder() {
        for locked in [true, false] {
            for (seed, races) in Self.sweep({ world in
                let s = world.scheduler
                let workers = s.makeQueue(label: "workers", kind: .concurrent(width: 2))
                let lock = s.makeLock(name: "flag")
                s.async(on: workers) {
                    if locked { lock.lock() }
                    world.write()
                    if locked { lock.unlock() }
                }
                s.async(on: workers) {
                    if locked { lock.lock() }
                    world.read()
                    if locked { lock.unlock() }
                }
            }) {
                #expect(races.count == (locked ? 0 : 1), "seed: \(seed), locked: \(locked): \(races)")
            }
        }
    }

    @Test("a semaphore orders the signaller's past before the wait that takes its unit")
    func semaphoreOrder() {
        for (seed, races) in Self.sweep({ world in
            let s = world.scheduler
            let workers = s.makeQueue(label: "workers", kind: .concurrent(width: 2))
            let done = s.makeSemaphore(name: "done", value: 0)
            s.async(on: workers) {
                done.wait()
                world.read()
            }
            s.async(on: workers) {
                world.write()
                done.signal()
            }
        }) {
            #expect(races.isEmpty, "seed: \(seed): \(races)")
        }
    }

    @Test("a repeating timer's fires are ordered with each other, even on a concurrent queue")
    func timerFires() {
        for (seed, races) in Self.sweep({ world in
            let s = world.scheduler
            let workers = s.makeQueue(label: "workers", kind: .concurrent(width: 2))
            var fires = 0
            var timer: JobID?
            timer = s.repeating(every: .seconds(1), on: workers) {
                world.read()
                world.write()
                fires += 1
                if fires == 3, let timer { s.cancel(timer) }
            }
        }) {
            #expect(races.isEmpty, "seed: \(seed): \(races)")
        }
    }
}
