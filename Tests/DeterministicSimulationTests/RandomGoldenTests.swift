import DeterministicSimulation
import Testing

/// Golden values: a seed must mean the same run forever, so the generators' outputs are pinned.
/// SplitMix64(0) and xoshiro256** from state (1, 2, 3, 4) are the published reference values; the
/// rest were computed with an independent Python implementation of the documented algorithms.
@Suite("Random generators")
struct RandomGoldenTests {
    @Test("SplitMix64 seeded with 0 gives the published reference outputs")
    func splitMixSeedZero() {
        var generator = SplitMix64(seed: 0)
        let outputs = (0..<4).map { _ in generator.next() }
        #expect(outputs == [0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f, 0xf88bb8a8724c81ec])
    }

    @Test("SplitMix64 seeded with 0x0123456789abcdef gives pinned outputs")
    func splitMixOtherSeed() {
        var generator = SplitMix64(seed: 0x0123_4567_89ab_cdef)
        let outputs = (0..<3).map { _ in generator.next() }
        #expect(outputs == [0x157a3807a48faa9d, 0xd573529b34a1d093, 0x2f90b72e996dccbe])
    }

    @Test("SplitMix64.mix is the output function: mix(gamma) is the first output for seed 0")
    func splitMixMix() {
        #expect(SplitMix64.mix(SplitMix64.gamma) == 0xe220a8397b1dcdaf)
        #expect(SplitMix64.mix(0) == 0)
    }

    @Test("xoshiro256** from state (1, 2, 3, 4) gives the reference implementation's outputs")
    func xoshiroReferenceState() {
        var generator = Xoshiro256StarStar(state: (1, 2, 3, 4))
        let outputs = (0..<5).map { _ in generator.next() }
        #expect(outputs == [11520, 0, 1_509_978_240, 1_215_971_899_390_074_240, 1_216_172_134_540_287_360])
    }

    @Test("xoshiro256** seeded through SplitMix64 gives pinned outputs for seeds 0 and 42")
    func xoshiroSeeded() {
        var zero = Xoshiro256StarStar(seed: 0)
        #expect((0..<4).map { _ in zero.next() }
            == [0x99ec5f36cb75f2b4, 0xbf6e1f784956452a, 0x1a5f849d4933e6e0, 0x6aa594f1262d2d2c])
        var fortyTwo = Xoshiro256StarStar(seed: 42)
        #expect((0..<3).map { _ in fortyTwo.next() }
            == [0x15780b2e0c2ec716, 0x6104d9866d113a7e, 0xae17533239e499a1])
    }

    @Test("next(below:) is pinned for small, large and awkward bounds")
    func boundedGolden() {
        var generator = Xoshiro256StarStar(seed: 0x2a)
        let bounds: [UInt64] = [2, 3, 6, 10, 52, 1000, 1 << 53, (1 << 63) + 1, .max]
        let values = bounds.map { generator.next(below: $0) }
        #expect(values == [0, 1, 4, 9, 51, 769, 6_478_505_326_628_027, 7_022_439_175_346_172_479,
                           10_760_895_422_300_929_084])
        var dice = Xoshiro256StarStar(seed: 7)
        #expect((0..<10).map { _ in dice.next(below: 6) } == [4, 1, 5, 5, 5, 5, 0, 0, 2, 0])
    }

    @Test("next(below: 0) returns 0 and leaves the state untouched; below 1 returns 0")
    func boundedEdges() {
        var generator = Xoshiro256StarStar(seed: 9)
        var untouched = Xoshiro256StarStar(seed: 9)
        #expect(generator.next(below: 0) == 0)
        #expect(generator.next() == untouched.next())
        #expect(generator.next(below: 1) == 0)
    }

    @Test("next(below:) stays in range and is roughly uniform over 60 000 draws")
    func boundedUniform() {
        var generator = Xoshiro256StarStar(seed: 123)
        var counts = [Int](repeating: 0, count: 6)
        for _ in 0..<60_000 {
            let value = generator.next(below: 6)
            #expect(value < 6)
            counts[Int(value)] += 1
        }
        for count in counts {
            #expect(abs(count - 10_000) < 500, "counts: \(counts)")
        }
    }

    @Test("skip(n) leaves the state where n calls of next() leave it, for n from 0 to 64")
    func skipIsNextWithoutOutputs() {
        for count in 0...64 {
            var skipped = Xoshiro256StarStar(seed: 0x5eed + UInt64(count))
            var drawn = skipped
            skipped.skip(count)
            for _ in 0..<count { _ = drawn.next() }
            for _ in 0..<4 { #expect(skipped.next() == drawn.next(), "after skipping \(count)") }
        }
    }
}
