import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// Sleeps on a run's simulated threads (plain_sleeps.c): `Thread.sleep`, `usleep` and `sleep`
/// block only the sleeping thread, for that long on the virtual clock, while the others go on.
/// Before, a sleep blocked the whole run for real time with its virtual clock standing still,
/// so a thread polling a flag another thread sets never saw it set.
@Suite(.enabled(if: Scheduler.tracksPlainLocks && VirtualClocks.isSupported))
struct SleepTests {
    @Test("Thread.sleep, usleep and sleep take virtual time on the sleeping thread alone")
    func sleepsAreVirtual() {
        let probe = SleepProbe()
        let outcome = RealDispatchTests.run("sleeps", seed: 9) { Sleeper(probe: probe) }
        #expect(outcome.violations.isEmpty, "\(outcome.violations.map(\.message))")
        let process = probe.processes.first
        // 2 s + 0.5 s + 1 s from launch: wakes at 3.5 s of the run's clock; main ticked meanwhile.
        #expect(process?.woke == 3.5, "\(String(describing: process?.woke))")
        #expect((process?.mainTicks ?? 0) >= 3, "main ticked \(process?.mainTicks ?? 0) times during the sleeps")
    }

    @Test("a background thread polling a flag with Thread.sleep sees main set it, and stops polling then")
    func pollingLoopSeesTheFlag() {
        var seen = 0
        var onTime = 0
        for seed in 1...20 as ClosedRange<UInt64> {
            let probe = SleepProbe()
            let outcome = RealDispatchTests.run("polling", seed: seed) { PollsAFlag(probe: probe) }
            #expect(outcome.violations.isEmpty, "seed \(seed): \(outcome.violations.map(\.message))")
            for process in probe.processes {
                guard let woke = process.woke, let set = process.setAt else { continue }
                seen += 1
                // Never before main set it; within one poll (250 ms) when the app ran meanwhile.
                #expect(woke >= set, "seed \(seed): saw it at \(woke), set at \(set)")
                if woke - set <= 0.25 + 0.000_002 { onTime += 1 }
            }
        }
        #expect(seen > 0, "no poller ever saw the flag")
        #expect(onTime > 0, "no poller saw the flag within one poll")
    }

    @Test("a thread still polling when the run ends (a flag nothing sets any more) is given up at teardown")
    func pollerLeftAtTheEndIsGivenUp() {
        let pool = SimulatedThreadPool.forCurrentThread
        let before = pool.retiredCount
        let outcome = RealDispatchTests.run("forever", seed: 2) { PollsForever() }
        #expect(outcome.violations.isEmpty, "\(outcome.violations.map(\.message))")
        // One poller per process the run launched (this seed's first is killed for memory).
        let processes = outcome.trace.count { if case .processLaunched = $0.event { true } else { false } }
        #expect(processes >= 1)
        #expect(pool.retiredCount == before + processes, "\(pool.retiredCount - before) threads given up, \(processes) processes")
    }

    @Test("a block inside Thread.sleep when the run ends sleeps out its interval at teardown and ends: its thread is not given up")
    func sleeperLeftAtTheEndFinishes() {
        let pool = SimulatedThreadPool.forCurrentThread
        let before = pool.retiredCount
        let probe = SleepProbe()
        // Three 400 s throttles: the run's 600 s horizon ends inside the second.
        let outcome = RealDispatchTests.run("throttled", seed: 4) { ThrottledChunks(probe: probe, chunks: 3, pause: 400) }
        #expect(outcome.violations.isEmpty, "\(outcome.violations.map(\.message))")
        #expect(pool.retiredCount == before, "\(pool.retiredCount - before) threads given up")
        #expect(!probe.processes.isEmpty && probe.processes.allSatisfy { $0.woke != nil }, "\(probe.processes.map(\.woke))")
    }

    @Test("the crash handler's wait for another handler is real time on a run's thread, not a sleep the shims make virtual")
    func crashHandlerWaitIsRealTime() {
        // Two workers crashing together: the second handler waits while the first writes its
        // banner. With `sleep(1)` there, the shims made it a virtual wait that returned at once
        // (the banner was cut after its first line) and called into the engine from a handler.
        let probe = SleepProbe()
        let clock = WallClock()
        let outcome = RealDispatchTests.run("crash-wait", seed: 3) { WaitsAsACrashHandler(probe: probe) }
        let realSeconds = clock.elapsedSeconds
        #expect(outcome.violations.isEmpty, "\(outcome.violations.map(\.message))")
        let process = probe.processes.first
        #expect(process?.woke == 0, "the run's clock moved \(String(describing: process?.woke)) s during the wait")
        #expect(realSeconds >= 0.2, "the wait took \(realSeconds) s of real time")
    }

    @Test("a run whose threads sleep replays to the same digest")
    func replays() {
        let first = RealDispatchTests.run("polling", seed: 0x5ee9) { PollsAFlag(probe: SleepProbe()) }
        let second = RealDispatchTests.run("polling", seed: 0x5ee9) { PollsAFlag(probe: SleepProbe()) }
        #expect(first.digest == second.digest && first.eventCount == second.eventCount)
    }
}

// MARK: App-style workloads (Thread.sleep and the C library's sleeps)

final class SleepProbe: @unchecked Sendable {
    // @unchecked: touched by the run's simulated threads, one at a time (the baton).
    final class Process: @unchecked Sendable {
        var woke: Double?
        var setAt: Double?
        var mainTicks = 0
    }
    var processes: [Process] = []
}

/// A global-queue block sleeps 2 s (`Thread.sleep`), 0.5 s (`usleep`) and 1 s (`sleep`); main
/// ticks every second meanwhile.
final class Sleeper: Workload, @unchecked Sendable {
    private let probe: SleepProbe

    init(probe: SleepProbe) { self.probe = probe }

    func didFinishLaunching(_ context: WorkloadContext) {
        let mine = SleepProbe.Process()
        probe.processes.append(mine)
        let start = Date()
        DispatchQueue.global().async {
            Thread.sleep(forTimeInterval: 2)
            usleep(500_000)
            sleep(1)
            mine.woke = elapsed(since: start)
        }
        for tick in 1...3 {
            DispatchQueue.main.asyncAfter(deadline: .now() + Double(tick)) { mine.mainTicks += 1 }
        }
    }
}

/// A global-queue block polls a flag every 250 ms, as sync code waits for a state change; main
/// sets the flag 3 s after launch, under an `NSLock`.
final class PollsAFlag: Workload, @unchecked Sendable {
    private let probe: SleepProbe
    private let lock = NSLock()
    private var ready = false

    init(probe: SleepProbe) { self.probe = probe }

    func didFinishLaunching(_ context: WorkloadContext) {
        let mine = SleepProbe.Process()
        probe.processes.append(mine)
        let start = Date()
        DispatchQueue.global().async { [self] in
            while !lock.withLock({ ready }) { Thread.sleep(forTimeInterval: 0.25) }
            mine.woke = elapsed(since: start)
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + 3) { [self] in
            mine.setAt = elapsed(since: start)
            lock.withLock { ready = true }
        }
    }
}

/// A global-queue block waits 200 ms the way the crash handler waits for another handler.
final class WaitsAsACrashHandler: Workload, @unchecked Sendable {
    private let probe: SleepProbe

    init(probe: SleepProbe) { self.probe = probe }

    func didFinishLaunching(_ context: WorkloadContext) {
        let mine = SleepProbe.Process()
        probe.processes.append(mine)
        DispatchQueue.global().async {
            let start = Date()
            CrashSignals.waitRealTime(milliseconds: 200)
            mine.woke = elapsed(since: start)
        }
    }
}

/// A global-queue block that polls, every second, a flag nothing ever sets.
final class PollsForever: Workload, @unchecked Sendable {
    private let lock = NSLock()
    private var done = false

    func didFinishLaunching(_ context: WorkloadContext) {
        DispatchQueue.global().async { [self] in
            while !lock.withLock({ done }) { Thread.sleep(forTimeInterval: 0.1) }
        }
    }
}

/// A global-queue block works in chunks with a `Thread.sleep` throttle after each (as apps keep
/// a device cool), and notes when its loop ended.
final class ThrottledChunks: Workload, @unchecked Sendable {
    private let probe: SleepProbe
    private let chunks: Int
    private let pause: TimeInterval

    init(probe: SleepProbe, chunks: Int, pause: TimeInterval) {
        self.probe = probe
        self.chunks = chunks
        self.pause = pause
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let mine = SleepProbe.Process()
        probe.processes.append(mine)
        let start = Date()
        let (chunks, pause) = (chunks, pause)
        DispatchQueue.global().async {
            for _ in 0..<chunks { Thread.sleep(forTimeInterval: pause) }
            mine.woke = elapsed(since: start)
        }
    }
}
