@testable import DeterministicSimulation
import Testing

/// The race detector tracks happens-before only from a run's first shared access (a run that
/// shares no state pays for no clock). That must find exactly the races that tracking from the
/// start finds: random programs of queues, nested enqueues, timers, locks and accesses, some
/// sharing nothing until late, each run both ways on the same seed (detection changes no
/// decision), give the same races.
@Suite("Race detection from the first shared access")
struct RaceTrackingStartTests {
    /// A small deterministic generator for the programs (SplitMix64), apart from the run's choices.
    struct ProgramRandom {
        var state: UInt64
        mutating func next(below bound: Int) -> Int {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    final class Cell { var value = 0 }

    /// Builds program `index` on a fresh scheduler and runs it; returns its races' descriptions.
    static func run(program index: Int, tracksFromStart: Bool) -> [String] {
        let seed = Seed(0x7ace_57a7).derive(index: UInt64(index))
        let scheduler = Scheduler(choices: ChoiceSource(seed: seed))
        scheduler.enableControlledConcurrency(.randomWalk(preemptionRate: 0.3), pool: SimulatedThreadPool())
        scheduler.enableRaceDetection(checkingPlainAccesses: false)  // the named model alone: the flags below are plain too
        scheduler.raceDetector?.tracksFromStart = tracksFromStart
        defer { scheduler.discardPendingJobs() }
        var random = ProgramRandom(state: UInt64(index))
        let cells = [Cell(), Cell()]
        let queues = [scheduler.mainQueue, scheduler.makeQueue(label: "a", kind: .serial),
                      scheduler.makeQueue(label: "b", kind: .serial),
                      scheduler.makeQueue(label: "workers", kind: .concurrent(width: 2))]
        let lock = scheduler.makeLock(name: "cells")
        // Accesses only from this job on (counted in program order of creation): some programs
        // share nothing for their first several jobs, so tracking starts mid-run.
        let quietJobs = random.next(below: 6)
        var made = 0

        func access(_ cell: Cell, write: Bool) {
            scheduler.recordSharedAccess(write ? .write : .read, to: ObjectIdentifier(cell),
                                         name: cell === cells[0] ? "first" : "second")
            if write { cell.value += 1 } else { _ = cell.value }
        }

        func job(depth: Int) -> () -> Void {
            made += 1
            let shares = made > quietJobs
            var steps: [() -> Void] = []
            for _ in 0..<(1 + random.next(below: 4)) {
                let cell = cells[random.next(below: 2)]
                let write = random.next(below: 2) == 0
                switch random.next(below: 5) {
                case 0 where shares: steps.append { access(cell, write: write) }
                case 1 where shares:
                    steps.append {
                        lock.lock()
                        access(cell, write: write)
                        lock.unlock()
                    }
                case 2 where depth < 3:
                    let queue = queues[random.next(below: queues.count)]
                    let nested = job(depth: depth + 1)
                    steps.append { scheduler.async(on: queue, nested) }
                case 3 where depth < 3:
                    let queue = queues[random.next(below: queues.count)]
                    let nested = job(depth: depth + 1)
                    let delay = VirtualDuration.milliseconds(Int64(random.next(below: 20)))
                    steps.append { scheduler.asyncAfter(delay, on: queue, nested) }
                default:
                    steps.append {
                        lock.lock()
                        lock.unlock()
                    }
                }
            }
            return { for step in steps { step() } }
        }

        for _ in 0..<(2 + random.next(below: 4)) {
            scheduler.async(on: queues[random.next(below: queues.count)], job(depth: 0))
        }
        _ = scheduler.runUntilIdle(maxSteps: 100_000)
        return scheduler.dataRaces.map(\.description)
    }

    @Test("tracking from the first shared access finds exactly the races tracking from the start finds")
    func sameRacesEitherWay() {
        var racy = 0
        var lateStarts = 0
        for index in 0..<200 {
            let fromStart = Self.run(program: index, tracksFromStart: true)
            let fromFirstAccess = Self.run(program: index, tracksFromStart: false)
            #expect(fromFirstAccess == fromStart, "program \(index)")
            if !fromStart.isEmpty { racy += 1 }
            var random = ProgramRandom(state: UInt64(index))
            if random.next(below: 6) > 0 { lateStarts += 1 }
        }
        // The comparison means something only if programs race, and many start sharing late.
        #expect(racy >= 40, "\(racy) of 200 programs raced")
        #expect(lateStarts >= 100)
    }

    @Test("a run that never shares state keeps no clock")
    func noClockWithoutSharing() {
        let scheduler = Scheduler(choices: ChoiceSource(seed: Seed(7)))
        scheduler.enableRaceDetection(checkingPlainAccesses: false)  // the named model alone: the flags below are plain too
        let workers = scheduler.makeQueue(label: "workers", kind: .concurrent(width: 2))
        for _ in 0..<10 { scheduler.async(on: workers) { scheduler.async(on: scheduler.mainQueue) {} } }
        _ = scheduler.runUntilIdle(maxSteps: 1_000)
        #expect(scheduler.raceDetector?.isTracking == false)
        #expect(scheduler.raceDetector?.contexts.allSatisfy { $0.clock == VectorClock() && !$0.isTracked } == true)
    }
}
