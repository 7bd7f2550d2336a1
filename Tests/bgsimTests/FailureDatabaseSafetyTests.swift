@testable import BGSimCommands
import BackgroundTaskSimulator
import DeterministicSimulation
import SimulationFormats
import Foundation
import Testing

/// Issue 32, item 5: the failure database under concurrent processes and tampered files. A file
/// another process deleted between listing and reading is simply gone; `check` never deletes; an
/// entry naming an invariant its scenario does not check, or a field that is not what `fuzz`
/// writes, is exit 65 naming the file and the field.
@Suite struct FailureDatabaseSafetyTests {
    /// A saved failure of the `uploader` scenario, as `fuzz` writes it; `c1.` replays the
    /// simplest run, which the correct download manager passes.
    /// A saved failure's file; `choiceMeaning` nil leaves the field out (a file saved before it).
    static func saved(invariant: String = "every-begin-ended", choices: String = #""c1.""#,
                      seed: String = #""0x0000000000000008""#, choiceMeaning: Int64? = ChoiceMeaning.current) -> String {
        """
        {"formatVersion": 1, "scenario": {"name": "uploader", "file": "uploader.json"}, "invariant": "\(invariant)",
         "message": "task 1 never ended", "choices": \(choices), "seed": \(seed), "campaignSeed": "0x0000000000000001",
         "tool": {"name": "bgsim", "version": "0.0.0"}, "strategy": "random"\(choiceMeaning.map { ", \"choiceMeaning\": \($0)" } ?? "")}
        """
    }

    /// A folder with the correct uploader scenario (one passing run) and a database holding `entry`.
    static func setUp(_ entry: String, scenario: String = FailureDatabaseTests.scenario(variant: "correct", runs: 1,
                                                                                       seed: "8"))
        -> (folder: TemporaryFolder, scenario: String, database: String, entry: String) {
        let folder = TemporaryFolder()
        let file = folder.write("uploader.json", scenario)
        try? FileManager.default.createDirectory(atPath: folder.path + "/db", withIntermediateDirectories: true)
        let path = folder.write("db/uploader--every-begin-ended.json", entry)
        return (folder, file, folder.path + "/db", path)
    }

    @Test("a saved failure deleted by another process between listing and reading is skipped, not exit 66")
    func vanishedBetweenListingAndReading() throws {
        let (_, file, folder, entry) = Self.setUp(Self.saved())
        let scenario = try ScenarioLoader.load(file: file)
        // The seam reads as a racing `fuzz` would leave it: the file was listed, then dropped.
        var racing = DirectoryFailureStore(directory: folder)
        racing.readFile = { path in
            try? FileManager.default.removeItem(atPath: path)
            return FileManager.default.contents(atPath: path)
        }
        let entries = try racing.entries(of: scenario.name)  // before the fix: exit 66, "cannot read this saved failure"
        #expect(entries.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: entry))
        // Dropping a file that is already gone is no error either.
        #expect(try DirectoryFailureStore(directory: folder).replay(scenario, dropsFixed: true).replayed == 0)
    }

    @Test("check never deletes a saved failure that no longer fails; fuzz drops it")
    func checkOnlyReads() {
        let (_, file, database, entry) = Self.setUp(Self.saved())
        let check = CLIRun(["check", file, "--quiet", "--no-isolate", "--failure-db", database])
        #expect(check.code == .success, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("replayed 1 saved failure: 0 still fail; 1 no longer fails (fuzz drops it)"))
        #expect(FileManager.default.fileExists(atPath: entry), "check must not delete")
        let fuzz = CLIRun(["fuzz", file, "--quiet", "--failure-db", database])
        #expect(fuzz.code == .success)
        #expect(fuzz.stdout.contains("1 no longer fails, dropped"))
        #expect(!FileManager.default.fileExists(atPath: entry))
    }

    @Test("fuzz keeps a saved failure of an older version that no longer fails, and says why (its choices mean another run now)")
    func olderSavedFailureSurvivesFuzz() {
        let (_, file, database, entry) = Self.setUp(Self.saved(choiceMeaning: nil))
        let fuzz = CLIRun(["fuzz", file, "--quiet", "--failure-db", database])
        #expect(fuzz.code == .success, "\(fuzz.stdout)\(fuzz.stderr)")
        #expect(fuzz.stdout.contains("1 saved by an older version (every-begin-ended) no longer fails as replayed"),
                "\(fuzz.stdout)")
        #expect(FileManager.default.fileExists(atPath: entry), "an upgrade must not delete a finding")
    }

    @Test("a saved failure of an invariant the scenario does not check is exit 65 naming the file and field",
          arguments: ["no-such-invariant", "no-double-end"])
    func unknownInvariant(invariant: String) {
        let limited = FailureDatabaseTests.scenario(variant: "correct", runs: 1, seed: "8")
            .replacingOccurrences(of: #""expect": "pass""#, with: #""invariants": ["every-begin-ended"], "expect": "pass""#)
        let (_, file, database, entry) = Self.setUp(Self.saved(invariant: invariant), scenario: limited)
        for command in ["check", "fuzz"] {
            let run = CLIRun([command, file, "--quiet", "--no-isolate", "--failure-db", database])
            #expect(run.code == .dataError, "\(command): \(run.stdout)")
            #expect(run.errorLines == ["bgsim \(command): \(entry): $.invariant: \"\(invariant)\" is not an invariant "
                + "scenario uploader checks (every-begin-ended); delete the file or run with --no-failure-db"])
            #expect(FileManager.default.fileExists(atPath: entry), "\(command) must not delete it silently")
        }
    }

    @Test("tampered fields of a saved failure are exit 65 naming the file and field", arguments: [
        (saved(choices: #""c1.!!""#), "$.choices: "),
        (saved(choices: "123456789012345678901234567890"), "$.choices is missing or not a string"),
        (saved(seed: #""0x1234567890abcdef0""#), "$.seed: "),
        (saved(seed: "1e400"), "the number 1e400 is too large"),
        (saved(seed: #"["0x1"]"#), "$.seed is missing or not a string"),
        (#"{"formatVersion": "1"}"#, "$.formatVersion is missing or not an integer"),
        (#"{"formatVersion": 99999999999999999999999}"#, "$.formatVersion is missing or not an integer"),
        ("[1, 2]", "$.formatVersion is missing or not an integer"),
    ])
    func tamperedFields(entry: String, expected: String) {
        let (_, file, database, path) = Self.setUp(entry)
        let run = CLIRun(["check", file, "--quiet", "--no-isolate", "--failure-db", database])
        #expect(run.code == .dataError, "\(run.stdout)")
        #expect(run.errorLines.count == 1)
        #expect(run.stderr.hasPrefix("bgsim check: \(path): ") && run.stderr.contains(expected), "\(run.stderr)")
    }
}
