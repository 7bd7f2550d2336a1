import DeterministicSimulation
import Testing

@Suite("Virtual time")
struct VirtualTimeTests {
    @Test("times print as seconds with exactly six decimals")
    func timeDescription() {
        #expect(VirtualTime(microseconds: 12_000_345).description == "12.000345s")
        #expect(VirtualTime.zero.description == "0.000000s")
        #expect(VirtualTime.seconds(3).description == "3.000000s")
        #expect(VirtualTime(microseconds: -1).description == "-0.000001s")
        #expect(VirtualTime(microseconds: .min).description == "-9223372036854.775808s")
        #expect(VirtualDuration.milliseconds(250).description == "0.250000s")
    }

    @Test("durations convert from Swift.Duration, rounding to the nearest microsecond")
    func durationConversion() {
        #expect(VirtualDuration(.seconds(2)).microseconds == 2_000_000)
        #expect(VirtualDuration(.nanoseconds(1_500)).microseconds == 2)
        #expect(VirtualDuration(.nanoseconds(1_499)).microseconds == 1)
        #expect(VirtualDuration(.nanoseconds(-1_500)).microseconds == -2)
        #expect(VirtualDuration(.milliseconds(-1_500)).microseconds == -1_500_000)
        #expect(VirtualDuration(.seconds(Int64.max)).microseconds == .max)
        #expect(VirtualDuration(.seconds(Int64.min)).microseconds == .min)
        // Beyond the 64-bit attosecond fast path (about 9.2 s), the same rounding.
        #expect(VirtualDuration(.seconds(10) + .nanoseconds(1_500)).microseconds == 10_000_002)
        #expect(VirtualDuration(.seconds(-10) - .nanoseconds(1_499)).microseconds == -10_000_001)
        #expect(VirtualDuration(.seconds(3_600) + .nanoseconds(499)).microseconds == 3_600_000_000)
        // And back: a whole number of microseconds converts exactly.
        #expect(VirtualDuration.milliseconds(250).duration == .milliseconds(250))
        #expect(VirtualDuration.seconds(-90).duration == .seconds(-90))
        #expect(VirtualDuration(VirtualDuration.microseconds(123_456_789).duration) == .microseconds(123_456_789))
    }

    @Test("constructors scale and saturate")
    func constructors() {
        #expect(VirtualDuration.seconds(2).microseconds == 2_000_000)
        #expect(VirtualDuration.milliseconds(3).microseconds == 3_000)
        #expect(VirtualDuration.microseconds(4).microseconds == 4)
        #expect(VirtualDuration.seconds(.max).microseconds == .max)
        #expect(VirtualTime.seconds(.min).microseconds == .min)
    }

    @Test("arithmetic is exact and saturates instead of trapping")
    func arithmetic() {
        let t = VirtualTime.seconds(1) + .milliseconds(500)
        #expect(t.microseconds == 1_500_000)
        #expect((t - VirtualTime.seconds(1)) == .milliseconds(500))
        #expect(VirtualDuration.seconds(1) + .seconds(2) == .seconds(3))
        #expect(VirtualDuration.milliseconds(5) * 3 == .milliseconds(15))
        #expect((VirtualTime.distantFuture + .seconds(1)) == .distantFuture)
        #expect((VirtualTime(microseconds: .min) - VirtualTime.seconds(1)).microseconds == .min)
        #expect((VirtualDuration.seconds(1) * .max).microseconds == .max)
        #expect((VirtualDuration.seconds(-1) * .max).microseconds == .min)
        #expect(VirtualTime.seconds(1) < VirtualTime.seconds(2))
        #expect(VirtualDuration.zero < VirtualDuration.microseconds(1))
    }

    @Test("the clock moves forward only, and only when told")
    func clock() {
        let clock = VirtualClock()
        #expect(clock.now == .zero)
        clock.advance(by: .seconds(5))
        #expect(clock.now == .seconds(5))
        clock.advance(by: .seconds(-1))
        clock.advance(by: .zero)
        #expect(clock.now == .seconds(5))
        clock.advance(to: .seconds(3))
        #expect(clock.now == .seconds(5))
        clock.advance(to: .seconds(7))
        #expect(clock.now == .seconds(7))
        clock.advance(by: VirtualDuration(microseconds: .max))
        #expect(clock.now == .distantFuture)
        #expect(VirtualClock(now: .seconds(100)).now == .seconds(100))
    }
}
