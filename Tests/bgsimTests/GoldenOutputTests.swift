import BGSimCommands
import DeterministicSimulation
import SimulationFormats
import Foundation
import Testing

/// Golden-output tests for what users and CI read: the human summary of `fuzz`, the JSON report
/// and the JUnit file, for one planted-bug campaign. Timing is masked (the summary) or removed
/// (`CampaignReport.timingFree`); the checkout's location is replaced by `<root>`. Everything else
/// must match byte for byte. After an intended change, regenerate with
/// `BGSIM_UPDATE_GOLDEN=1 swift test --filter GoldenOutputTests` and review the diff.
@Suite struct GoldenOutputTests {
    static let goldenDirectory = PackageRoot.path + "/Tests/bgsimTests/Golden/"
    static let updating = ProcessInfo.processInfo.environment["BGSIM_UPDATE_GOLDEN"] == "1"

    struct Outputs {
        let summary: String
        let report: String
        let junit: String
    }

    static func campaign() throws -> Outputs {
        let folder = TemporaryFolder()
        let report = folder.path + "/report.json"
        let junit = folder.path + "/junit.xml"
        let run = CLIRun(["fuzz", PackageRoot.scenario("backup-p4-unconditional-end-ios17.json"), "--runs", "20",
                          "--jobs", "2", "--quiet", "--report", report, "--junit", junit])
        #expect(run.code == .success, "the planted bug is found as expected: \(run.stderr)")
        let reportBytes = try #require(FileManager.default.contents(atPath: report))
        let json = CampaignReport.timingFree(try JSONParser().parse([UInt8](reportBytes)))
        let junitText = String(decoding: try #require(FileManager.default.contents(atPath: junit)), as: UTF8.self)
        return Outputs(summary: maskTiming(relative(run.stdout)), report: relative(JSONWriter().string(for: json)),
                       junit: relative(junitText))
    }

    static func relative(_ text: String) -> String {
        text.replacingOccurrences(of: PackageRoot.path + "/", with: "<root>/")
    }

    /// `simulated in 0.1 s (261 runs/s)` → `simulated in <time> (<rate>)`.
    static func maskTiming(_ text: String) -> String {
        let pattern = /simulated in [0-9.]+ s \([0-9]+ runs\/s\)/
        return text.replacing(pattern, with: "simulated in <time> (<rate>)")
    }

    static func check(_ actual: String, golden name: String) throws {
        let path = goldenDirectory + name
        if updating {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let expected = String(decoding: try #require(FileManager.default.contents(atPath: path),
                                                     "missing \(path); run with BGSIM_UPDATE_GOLDEN=1"), as: UTF8.self)
        #expect(actual == expected, "\(name) differs from its golden file; if intended, regenerate it")
    }

    @Test func goldenSummaryReportAndJUnit() throws {
        let outputs = try Self.campaign()
        try Self.check(outputs.summary, golden: "fuzz-summary.txt")
        try Self.check(outputs.report, golden: "fuzz-report.json")
        try Self.check(outputs.junit, golden: "fuzz-junit.xml")
    }

    @Test func outputsDoNotDependOnTheRun() throws {
        let first = try Self.campaign()
        let second = try Self.campaign()
        #expect(first.summary == second.summary)
        #expect(first.report == second.report)
        #expect(first.junit == second.junit)
    }
}
