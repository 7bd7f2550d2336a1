@testable import DeterministicSimulation
import Synchronization
import Testing

/// A shrink's budgets (issue 32): wall time stops it with the simplest failure so far and never
/// changes which candidates come first, the cache of tried candidates stays under its byte
/// bound, and a cancel (Ctrl-C) stops it before the next replay. Time moves only when the test's
/// clock is read, so no test here depends on the machine's speed.
@Suite struct ShrinkBudgetTests {
    static func keepsBig(_ verdict: RunVerdict) -> Bool { ShrinkerTests.keepsBig(verdict) }

    @Test("the defaults are one minute and 256 MiB per failure; a billion seconds or more is no limit")
    func defaults() {
        let options = ShrinkOptions()
        #expect(options.maxAttempts == 2_000)
        #expect(options.maxSeconds == 60)
        #expect(options.maxCacheBytes == 256 * 1_024 * 1_024)
        #expect(options.timeLimit == .seconds(60))
        #expect(ShrinkOptions(maxSeconds: .infinity).timeLimit == nil)
        #expect(ShrinkOptions(maxSeconds: -3).timeLimit == .zero)
        #expect(ShrinkOptions(maxSeconds: .nan).timeLimit == .zero)
    }

    @Test("a time-limited shrink tries exactly the candidates an attempt-limited one does: time decides only when it stops",
          arguments: [0, 0.1, 0.5, 0.9])
    func timeLimitStopsOnly(fraction: Double) throws {
        let original = ShrinkerTests.failingRecording(ThresholdTarget(), from: 100)
        let full = Shrinker.shrink(original, target: ThresholdTarget(), keeps: Self.keepsBig)
        let seconds = Int(fraction * Double(full.replays)) + 1
        // Read once at the start and once before each replay: the n-th replay's check reads n s.
        let timed = Shrinker.shrink(original, target: ThresholdTarget(), options: ShrinkOptions(maxSeconds: Double(seconds)),
                                    clock: SteppingClock(), keeps: Self.keepsBig)
        let counted = Shrinker.shrink(original, target: ThresholdTarget(), options: ShrinkOptions(maxAttempts: seconds - 1),
                                      keeps: Self.keepsBig)
        #expect(timed.stop == .timeLimit, "seed 100, \(seconds) s of \(full.replays)")
        #expect(timed.replays == seconds - 1)
        #expect(timed.choices == counted.choices)
        #expect(timed.passes == counted.passes)
        #expect(!original.isSimpler(than: timed.choices))
        #expect(Self.keepsBig(ThresholdTarget().run(choices: ChoiceSource(replaying: timed.choices), keepTrace: false)))
    }

    @Test("a shrink that ends within its time is the same as one with no time limit, byte for byte",
          arguments: [0, 100, 2_000] as [UInt64])
    func withinBudgetIsUnchanged(seed: UInt64) {
        let original = ShrinkerTests.failingRecording(ThresholdTarget(), from: seed)
        let unlimited = Shrinker.shrink(original, target: ThresholdTarget(), options: ShrinkOptions(maxSeconds: .infinity),
                                        keeps: Self.keepsBig)
        let stopped = Shrinker.shrink(original, target: ThresholdTarget(), options: ShrinkOptions(maxSeconds: 1),
                                      clock: SteppingClock(step: .zero), keeps: Self.keepsBig)
        let wall = Shrinker.shrink(original, target: ThresholdTarget(), keeps: Self.keepsBig)
        #expect(unlimited.stop == .fixpoint, "seed \(seed)")
        #expect(stopped == unlimited, "seed \(seed)")
        #expect(wall == unlimited, "seed \(seed)")
    }

    @Test("a cancel during a replay stops the shrink before the next one, where an attempt limit would have, with the simplest failure so far",
          arguments: [0.05, 0.3, 0.8])
    func cancelStopsWithinOneReplay(fraction: Double) throws {
        let original = ShrinkerTests.failingRecording(ThresholdTarget(), from: 2_000)
        let full = Shrinker.shrink(original, target: ThresholdTarget(), keeps: Self.keepsBig)
        // The first run is the shrink's replay of its input; the flag is raised inside run n.
        let cancelledDuringRun = Int(fraction * Double(full.replays)) + 1
        let target = CountingTarget(ThresholdTarget())
        let result = Shrinker.shrink(original, target: target, isCancelled: { target.runs >= cancelledDuringRun },
                                     keeps: Self.keepsBig)
        let context = "seed 2000, cancelled during run \(cancelledDuringRun) of \(full.replays + 1)"
        #expect(target.runs == cancelledDuringRun, "\(context)")
        #expect(result.stop == .cancelled, "\(context)")
        #expect(result.replays == cancelledDuringRun - 1)
        // The attempt limit counts replays (a candidate judged by a read front runs nothing).
        let counted = Shrinker.shrink(original, target: ThresholdTarget(), options: ShrinkOptions(maxAttempts: result.replays),
                                      keeps: Self.keepsBig)
        #expect(result.choices == counted.choices, "\(context)")
        #expect(result.passes == counted.passes, "\(context)")
        #expect(Self.keepsBig(ThresholdTarget().run(choices: ChoiceSource(replaying: result.choices), keepTrace: false)))
    }

    @Test("the cache of tried candidates never holds more than its bound, and a full cache changes no result",
          arguments: [0, 200, 4_096])
    func cacheStaysBounded(bytes: Int) {
        let original = ShrinkerTests.failingRecording(ThresholdTarget(), from: 7)
        let unbounded = Shrinker.shrink(original, target: ThresholdTarget(), keeps: Self.keepsBig)
        var state = ShrinkState(target: ThresholdTarget(), options: ShrinkOptions(maxCacheBytes: bytes),
                                isCancelled: { false }, isOverTime: { false }, keeps: Self.keepsBig)
        let bounded = state.shrink(original)
        #expect(state.cacheBytes <= bytes)
        #expect(bytes == 0 ? state.cacheBytes == 0 : state.cacheBytes > 0)
        // Uncached repeats are replayed again (more attempts), and rejected again.
        #expect(bounded.choices == unbounded.choices, "\(bytes) bytes")
        #expect(bounded.stop == .fixpoint)
        #expect(bounded.attempts >= unbounded.attempts)
    }
}

/// A clock that moves `step` each time it is read (one second by default): a shrink reads it
/// at its start and before each replay, so its n-th check reads n steps.
final class SteppingClock: Clock {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    let step: Duration
    private let readings = Atomic<Int64>(0)

    init(step: Duration = .seconds(1)) { self.step = step }

    var now: Instant { Instant(offset: step * readings.wrappingAdd(1, ordering: .relaxed).oldValue) }
    var minimumResolution: Duration { step }
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {}
}

/// `base`, counting its runs.
final class CountingTarget<Base: CampaignTarget>: CampaignTarget {
    let base: Base
    private let count = Atomic<Int>(0)
    init(_ base: Base) { self.base = base }

    var runs: Int { count.load(ordering: .relaxed) }

    func run(choices: ChoiceSource, keepTrace: Bool) -> RunVerdict {
        count.wrappingAdd(1, ordering: .relaxed)
        return base.run(choices: choices, keepTrace: keepTrace)
    }
}
