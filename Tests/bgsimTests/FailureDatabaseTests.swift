import BGSimCommands
import SimulationFormats
import DeterministicSimulation
import Foundation
import Testing

/// Issue 18 part 3: the failure database. `fuzz` saves the failures that go against a scenario's
/// expectation; later `fuzz` and `check` runs replay them first, say so, and drop the ones that no
/// longer fail. Every test uses its own temporary folder, never the repository's `.bgsim/`.
@Suite struct FailureDatabaseTests {
    /// P1 (a second background entry overwrites the stored task id) in a scenario that wrongly
    /// expects to pass: its failures are real failures, and they are saved.
    static func scenario(_ name: String = "uploader", variant: String = "p1-overwritten-task-id",
                         expect: String = #""pass""#, runs: Int = 24, seed: String = "0x1") -> String {
        """
        {
          "name": "\(name)",
          "workload": "download-manager",
          "variant": "\(variant)",
          "profile": "ios17",
          "campaign": {"runs": \(runs), "seed": "\(seed)", "horizonSeconds": 120},
          "expect": \(expect)
        }
        """
    }

    /// A one-run campaign whose only run (seed 8) passes: what it finds comes from the database.
    static let quietRun = ["--runs", "1", "--seed", "8"]

    static func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test("fuzz saves each distinct failure, one versioned file per scenario and invariant")
    func fuzzSaves() throws {
        let folder = TemporaryFolder()
        let file = folder.write("uploader.json", Self.scenario())
        let database = folder.path + "/db"
        let run = CLIRun(["fuzz", file, "--quiet", "--failure-db", database])
        #expect(run.code == .violation)
        #expect(run.stdout.contains("  saved 5 new failures to \(database)/ (no-idle-task, expiry-ends-task, "
            + "every-begin-ended, no-watchdog-kill, background-work-held)"))
        #expect(Self.files(database) == ["uploader--background-work-held.json", "uploader--every-begin-ended.json",
                                         "uploader--expiry-ends-task.json", "uploader--no-idle-task.json",
                                         "uploader--no-watchdog-kill.json"])
        let saved = try JSONParser().parse(Array(try #require(FileManager.default.contents(
            atPath: database + "/uploader--every-begin-ended.json"))))
        #expect(saved.objectValue?.keys == ["formatVersion", "scenario", "invariant", "message", "choices", "seed",
                                            "campaignSeed", "tool", "strategy", "choiceMeaning"])
        #expect(saved["choiceMeaning"] == .int(ChoiceMeaning.current))
        #expect(saved["strategy"] == "random")
        #expect(saved["formatVersion"] == 1)
        #expect(saved["scenario"]?["name"] == "uploader" && saved["invariant"] == "every-begin-ended")
        #expect(saved["choices"]?.stringValue?.hasPrefix("c1.") == true)
        // Found again by the next campaign: nothing new is saved, the saved ones still fail.
        let again = CLIRun(["fuzz", file, "--quiet", "--failure-db", database])
        #expect(again.stdout.contains("  replayed 5 saved failures: 5 still fail (background-work-held, "
            + "every-begin-ended, expiry-ends-task, no-idle-task, no-watchdog-kill)"))
        #expect(!again.stdout.contains("saved 5 new"))
        #expect(again.stdout.hasSuffix("; replayed 5 saved failures: 5 still fail\n"))
    }

    @Test("a saved failure fails fuzz and check even when their own runs miss it; check writes nothing")
    func savedFailureFailsTheGate() throws {
        let folder = TemporaryFolder()
        let file = folder.write("uploader.json", Self.scenario())
        let database = folder.path + "/db"
        let quiet = CLIRun(["fuzz", file, "--quiet", "--no-failure-db"] + Self.quietRun)
        #expect(quiet.code == .success, "the one run passes: \(quiet.stdout)")
        _ = CLIRun(["fuzz", file, "--quiet", "--failure-db", database])
        let fuzz = CLIRun(["fuzz", file, "--quiet", "--failure-db", database] + Self.quietRun)
        #expect(fuzz.code == .violation)
        #expect(fuzz.stdout.contains("  1 runs: 1 passed, 0 failed"))
        #expect(fuzz.stdout.contains("expected no violation, but found background-work-held in a saved failure"))
        // check replays too (its own campaign is the scenario's), and never saves.
        let single = folder.write("single.json", Self.scenario(runs: 1, seed: "8"))
        let empty = folder.path + "/empty-db"
        let checked = CLIRun(["check", single, "--quiet", "--failure-db", database, "--junit", folder.path + "/j.xml"])
        #expect(checked.code == .violation)
        #expect(checked.stdout.contains("     replayed 5 saved failures: 5 still fail"))
        #expect(checked.stdout.contains("     every-begin-ended (saved failure): "))
        let junit = try String(contentsOfFile: folder.path + "/j.xml", encoding: .utf8)
        #expect(junit.contains("replayed 5 saved failures: 5 still fail"))
        _ = CLIRun(["check", file, "--quiet", "--failure-db", empty])
        #expect(!FileManager.default.fileExists(atPath: empty), "check must not write the database")
    }

    @Test("a saved failure that no longer fails is dropped")
    func fixedFailureIsDropped() {
        let folder = TemporaryFolder()
        let file = folder.write("uploader.json", Self.scenario())
        let database = folder.path + "/db"
        _ = CLIRun(["fuzz", file, "--quiet", "--failure-db", database])
        #expect(Self.files(database).count == 5)
        // The bug is fixed: the same scenario now runs the correct download manager.
        folder.write("uploader.json", Self.scenario(variant: "correct"))
        let fixed = CLIRun(["fuzz", file, "--quiet", "--failure-db", database])
        #expect(fixed.code == .success, "\(fixed.stdout)")
        #expect(fixed.stdout.contains("  replayed 5 saved failures: 0 still fail; 5 no longer fail, dropped"))
        #expect(Self.files(database).isEmpty)
    }

    @Test("for a planted-bug scenario a saved failure of its invariant is found as expected, and fuzz saves none")
    func plantedBugScenario() {
        let folder = TemporaryFolder()
        let database = folder.path + "/db"
        let file = folder.write("uploader.json", Self.scenario())
        _ = CLIRun(["fuzz", file, "--quiet", "--failure-db", database])
        // The team keeps the bug as a planted-bug scenario: the saved failure is its finding.
        folder.write("uploader.json", Self.scenario(expect: #"{"violation": "every-begin-ended"}"#))
        let planted = CLIRun(["fuzz", file, "--quiet", "--failure-db", database] + Self.quietRun)
        #expect(planted.code == .success, "\(planted.stdout)")
        #expect(planted.stdout.contains("found every-begin-ended as expected (in a saved failure)"))
        let other = folder.path + "/planted-db"
        let fresh = CLIRun(["fuzz", file, "--quiet", "--failure-db", other])
        #expect(fresh.code == .success)
        #expect(!FileManager.default.fileExists(atPath: other), "a planted bug's findings are not saved")
    }

    @Test("a corrupt or foreign file in the database is exit 65 naming it; the two flags contradict (64)")
    func badDatabase() {
        let folder = TemporaryFolder()
        let file = folder.write("uploader.json", Self.scenario())
        let database = folder.path + "/db"
        try? FileManager.default.createDirectory(atPath: database, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: database + "/x.json", contents: Data("{\"formatVersion\": 2}".utf8))
        let run = CLIRun(["check", file, "--quiet", "--failure-db", database])
        #expect(run.code == .dataError)
        #expect(run.errorLines == ["bgsim check: \(database)/x.json: formatVersion is 2; this bgsim reads version 1; "
            + "delete the file (the failure database rebuilds itself) or run with --no-failure-db"])
        let both = CLIRun(["fuzz", file, "--failure-db", database, "--no-failure-db"])
        #expect(both.code == .usage && both.stderr.contains("contradict"))
    }

    @Test("the executable's default database is .bgsim/failures in its working directory")
    func defaultFolder() throws {
        let executable = ReplayInNewProcessTests.executable
        try #require(FileManager.default.isExecutableFile(atPath: executable.path))
        let folder = TemporaryFolder()
        folder.write("uploader.json", Self.scenario())
        let process = Process()
        process.executableURL = executable
        process.arguments = ["fuzz", "uploader.json", "--quiet", "--jobs", "1"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(Self.files(folder.path + "/.bgsim/failures").count == 5)
    }
}
