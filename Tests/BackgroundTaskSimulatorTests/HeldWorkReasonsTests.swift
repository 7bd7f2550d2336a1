@testable import BackgroundTaskSimulator
import Testing

@Suite struct HeldWorkReasonsTests {
    /// The byte-built reason is the interpolated one, so traces and digests did not change.
    @Test func taskEndedMatchesInterpolation() {
        let ids = [0, 1, 9, 10, 42, 99, 100, 12_345, -1, -10, Int.max, Int.min]
        let names = [
            "", "save-draft", "Called by SimulatedApp, from draft-saver", "é✓ unicode",
            String(repeating: "x", count: 40),
        ]
        for id in ids {
            for name in names {
                let expected = "background task \(id) (\(name)) ended"
                #expect(HeldWorkReasons.taskEnded(id: id, name: name) == expected)
            }
        }
    }
}
