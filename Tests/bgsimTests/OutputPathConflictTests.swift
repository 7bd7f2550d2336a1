import BGSimCommands
import Foundation
import Testing

/// Issue 32, item 5: outputs never overwrite an input or each other, and every output and the
/// failure database's folder are checked before any work (exit 73; stdout stays empty, so no
/// run started).
@Suite struct OutputPathConflictTests {
    /// A planted-bug scenario that finishes in a blink.
    static func scenario(_ name: String, expect: String = #"{"violation": "every-begin-ended"}"#) -> String {
        ScenarioText.replacing(#""name": "bad-input-base""#, with: #""name": "\#(name)""#)
            .replacingOccurrences(of: #"{"violation": "every-begin-ended"}"#, with: expect)
    }

    /// A folder `scenarios/` holding two scenario files named after their scenarios.
    static func scenarioFolder() -> (folder: TemporaryFolder, scenarios: String, texts: [String: String]) {
        let folder = TemporaryFolder()
        try? FileManager.default.createDirectory(atPath: folder.path + "/scenarios", withIntermediateDirectories: true)
        var texts: [String: String] = [:]
        for name in ["first", "second"] {
            texts[name] = scenario(name)
            folder.write("scenarios/\(name).json", scenario(name))
        }
        return (folder, folder.path + "/scenarios", texts)
    }

    static func expectRefusedBeforeWork(_ run: CLIRun, _ code: ExitCode = .cannotCreate, mentioning text: String,
                                        sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.code == code, "\(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stdout.isEmpty, "no work before the refusal: \(run.stdout)", sourceLocation: sourceLocation)
        #expect(run.errorLines.count == 1, "\(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stderr.contains(text), "\(run.stderr)", sourceLocation: sourceLocation)
    }

    @Test("fuzz --report naming the scenario folder is refused with 73 and leaves every scenario file as it was")
    func reportIntoScenarioFolder() throws {
        let (folder, scenarios, texts) = Self.scenarioFolder()
        for report in [scenarios + "/", scenarios, scenarios + "/{scenario}.json"] {
            let run = CLIRun(["fuzz", scenarios, "--runs", "2", "--quiet", "--report", report])
            Self.expectRefusedBeforeWork(run, mentioning: "would overwrite the scenario file \(scenarios)/first.json")
            for (name, text) in texts {
                #expect(String(decoding: FileManager.default.contents(atPath: "\(scenarios)/\(name).json") ?? Data(),
                               as: UTF8.self) == text, "\(report) changed \(name).json")
            }
        }
        _ = folder
    }

    @Test("paths are compared resolved: ./, .. and a symbolic link to the folder all name the scenario file")
    func resolvedComparison() throws {
        let (folder, scenarios, _) = Self.scenarioFolder()
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/link", withDestinationPath: scenarios)
        let spellings = [scenarios + "/./first.json", scenarios + "/../scenarios/first.json", folder.path + "/link/first.json"]
        for report in spellings {
            let run = CLIRun(["fuzz", scenarios + "/first.json", "--runs", "2", "--quiet", "--report", report])
            Self.expectRefusedBeforeWork(run, mentioning: "--report \(report) would overwrite the scenario file")
        }
        let junit = CLIRun(["check", folder.path + "/link/second.json", "--junit", scenarios + "/second.json"])
        Self.expectRefusedBeforeWork(junit, mentioning: "--junit \(scenarios)/second.json would overwrite")
    }

    @Test("a report beside, not over, the scenarios in a folder being run is refused: later runs would read it")
    func reportBesideScenarios() {
        let (_, scenarios, _) = Self.scenarioFolder()
        let run = CLIRun(["fuzz", scenarios, "--runs", "2", "--quiet", "--report", scenarios + "/{scenario}-report.json"])
        Self.expectRefusedBeforeWork(run, mentioning: "would put a report in the scenario folder \(scenarios)")
    }

    @Test("--report and --junit on one path are refused with 73 before any work")
    func reportEqualsJUnit() {
        let (folder, scenarios, _) = Self.scenarioFolder()
        let out = folder.path + "/out.json"
        let run = CLIRun(["fuzz", scenarios + "/first.json", "--runs", "2", "--quiet", "--report", out,
                          "--junit", folder.path + "/./out.json"])
        Self.expectRefusedBeforeWork(run, mentioning: "are the same file")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("two scenarios with one name in one campaign are refused with 65 before any work, reports or not")
    func duplicateNamesAcrossPaths() {
        let folder = TemporaryFolder()
        let one = folder.write("one.json", Self.scenario("same"))
        let two = folder.write("two.json", Self.scenario("same"))
        let reports = folder.path + "/reports/"
        try? FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true)
        for extra in [["--report", reports], []] {
            let run = CLIRun(["fuzz", one, two, "--runs", "2", "--quiet"] + extra)
            Self.expectRefusedBeforeWork(run, .dataError, mentioning: "duplicate scenario name 'same', also used by \(one)")
        }
        let twice = CLIRun(["check", one, one])
        Self.expectRefusedBeforeWork(twice, .dataError, mentioning: "named twice")
    }

    @Test("a --failure-db that is a file, or under one, is refused with 73 before any work; nothing is created")
    func failureDatabaseIsAFile() {
        let folder = TemporaryFolder()
        let file = folder.write("plain-file", "not a folder")
        let scenario = folder.write("s.json", Self.scenario("s", expect: #""pass""#))
        let fuzz = CLIRun(["fuzz", scenario, "--runs", "2", "--quiet", "--failure-db", file])
        Self.expectRefusedBeforeWork(fuzz, mentioning: "\(file): cannot save failures in this failure database folder: "
            + "it is a file, not a folder")
        let under = CLIRun(["fuzz", scenario, "--runs", "2", "--quiet", "--failure-db", file + "/db"])
        Self.expectRefusedBeforeWork(under, mentioning: "'\(file)' is not a directory")
        let check = CLIRun(["check", scenario, "--failure-db", file])
        Self.expectRefusedBeforeWork(check, .noInput, mentioning: "cannot read the failure database: it is a file")
    }

    @Test("a failure database folder that does not exist yet passes the check and is not created by it")
    func failureDatabaseNotCreatedByCheck() {
        let folder = TemporaryFolder()
        let scenario = folder.write("s.json", Self.scenario("s"))
        let database = folder.path + "/deep/db"
        let run = CLIRun(["fuzz", scenario, "--runs", "2", "--quiet", "--failure-db", database])
        #expect(run.code != .cannotCreate, "\(run.stderr)")
        #expect(run.stdout.contains("seed "), "the campaign ran")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/deep"))
    }

    @Test("an output in the failure database's folder is refused: the database reads every file there")
    func outputInFailureDatabase() {
        let folder = TemporaryFolder()
        let scenario = folder.write("s.json", Self.scenario("s"))
        try? FileManager.default.createDirectory(atPath: folder.path + "/db", withIntermediateDirectories: true)
        let run = CLIRun(["fuzz", scenario, "--runs", "2", "--quiet", "--failure-db", folder.path + "/db",
                          "--report", folder.path + "/db/report.json"])
        Self.expectRefusedBeforeWork(run, mentioning: "is in the failure database folder")
    }

    @Test("a report name over 255 bytes is refused with 73 before any work, not after the campaign")
    func reportNameTooLong() {
        let folder = TemporaryFolder()
        let scenario = folder.write("s.json", Self.scenario("s"))
        let long = folder.path + "/" + String(repeating: "r", count: 251) + ".json"
        let run = CLIRun(["fuzz", scenario, "--runs", "2", "--quiet", "--report", long])
        Self.expectRefusedBeforeWork(run, mentioning: "is 256 bytes long, over the limit of 255 bytes")
        let junit = CLIRun(["check", scenario, "--junit", folder.path + "/" + String(repeating: "j", count: 300)])
        Self.expectRefusedBeforeWork(junit, mentioning: "over the limit of 255 bytes")
    }

    @Test("replay --trace over its own scenario file is refused with 73 and the scenario stays")
    func replayTraceOverScenario() {
        let folder = TemporaryFolder()
        let text = Self.scenario("s")
        let scenario = folder.write("s.json", text)
        let run = CLIRun(["replay", scenario, "--seed", "1", "--trace", folder.path + "/../" +
                          URL(fileURLWithPath: folder.path).lastPathComponent + "/s.json"])
        Self.expectRefusedBeforeWork(run, mentioning: "would overwrite the scenario file \(scenario)")
        #expect(FileManager.default.contents(atPath: scenario).map { String(decoding: $0, as: UTF8.self) } == text)
    }

    @Test("list --scenarios naming a folder that does not exist exits 66 with one line")
    func listMissingFolder() {
        let run = CLIRun(["list", "--scenarios", "no-such-dir"])
        #expect(run.code == .noInput, "\(run.stdout.prefix(200))")
        #expect(run.stdout.isEmpty)
        #expect(run.errorLines.count == 1)
        #expect(run.stderr.contains("no-such-dir"))
    }
}
