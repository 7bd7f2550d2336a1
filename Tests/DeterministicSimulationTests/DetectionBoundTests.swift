import DeterministicSimulation
import Testing

@Suite struct DetectionBoundTests {
    @Test("300 runs without a failure rule out, at 95% confidence, any failure in at least 1 run in 100")
    func threeHundredRuns() {
        let bound = DetectionBound(runs: 300)
        #expect(bound.oneIn == 100)
        #expect(bound.text == "rules out, at 95% confidence, any failure that shows in at least 1 run in 100")
    }

    @Test("the bound is never stronger than the arithmetic: (1 - 1/K)^N <= 0.05 for the printed K")
    func neverOverclaims() {
        for runs in [1, 2, 3, 5, 12, 20, 100, 299, 300, 1_000, 3_000] {
            let bound = DetectionBound(runs: runs)
            var missed = 1.0
            for _ in 0..<runs { missed *= 1 - 1 / Double(bound.oneIn) }
            #expect(missed <= 0.05 + 1e-12, "runs \(runs): 1 in \(bound.oneIn)")
        }
        #expect(DetectionBound(runs: 2).text == "rules out, at 95% confidence, any failure that shows in every run")
        #expect(DetectionBound(runs: 0).text == nil)
    }

    @Test("a race in 11 of 3,000 runs needs about 820 runs for 95% (the worked example of the CI article)")
    func runsNeeded() {
        #expect(DetectionBound.runsNeeded(toSee: 11.0 / 3_000) == 816)
        #expect(DetectionBound.runsNeeded(toSee: 0.01) == 299)
        #expect(DetectionBound.count(19, of: 300) == "19 of 300 runs")
        #expect(DetectionBound.count(1, of: 1) == "1 of 1 run")
    }
}
