@testable import BackgroundTaskSimulatorTesting
@testable import DeterministicSimulation
import Testing

/// The runs of a campaign that did not replay the same are one issue, not one each: they
/// usually share a cause (probe 6 got three issues, each with the whole explanation, for one
/// `Dictionary` of objects). Each run is named, with where its reruns part when known.
@Suite struct NondeterminismFindingTests {
    static func record(_ index: Int, difference: String? = nil) -> NondeterminismRecord {
        NondeterminismRecord(seed: Seed(UInt64(0x100 + index)), runIndex: index, expected: TraceDigest(1),
                             actual: TraceDigest(2), how: "a rerun from its seed", firstDifference: difference)
    }

    @Test("three runs are one finding: each named, the causes once, one replay")
    func oneFindingForAll() throws {
        let text = try #require(CampaignFinding.nondeterminismText([
            Self.record(3, difference: "event 12: p1.main ran 'save' where the first run ran 'upload'"),
            Self.record(7), Self.record(9),
        ]))
        #expect(text.hasPrefix("nondeterminism: 3 runs did not replay to the same trace:\n"), "\(text)")
        #expect(text.contains("where they part: event 12: p1.main ran 'save'"), "\(text)")
        #expect(text.components(separatedBy: "usual causes:").count == 2, "the causes once: \(text)")
        #expect(text.hasSuffix("replay it: campaign.replay(seed: \(Seed(0x103)))"), "\(text)")
        #expect(CampaignFinding.nondeterminismText([]) == nil)
    }

    @Test("two ways of rerunning one run are one run; past five runs the rest are counted")
    func countsRunsAndCaps() throws {
        let one = try #require(CampaignFinding.nondeterminismText([Self.record(4), Self.record(4)]))
        #expect(one.hasPrefix("nondeterminism: a run did not replay"), "\(one)")
        let many = try #require(CampaignFinding.nondeterminismText((0..<8).map { Self.record($0) }))
        #expect(many.contains("\n  and 3 more\n"), "\(many)")
    }
}
