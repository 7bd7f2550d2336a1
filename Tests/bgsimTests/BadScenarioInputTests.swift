import BGSimCommands
import Testing

/// Issue 8's bad-input table for scenario files: each gets its exit code and one line on stderr
/// that says what, where (file and field path) and how to fix it. Loaded through `replay`, which
/// shares the loader with `fuzz` and `check`.
@Suite struct BadScenarioInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let text: String
        let code: ExitCode
        /// Fragments the one stderr line must contain (the field path, the fix).
        let mentions: [String]
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "not JSON", text: "hello", code: .dataError, mentions: [":1:1", "expected a value"]),
        Case(label: "truncated", text: String(ScenarioText.valid.prefix(60)), code: .dataError,
             mentions: ["unterminated string"]),
        Case(label: "empty file", text: "", code: .dataError, mentions: ["empty"]),
        Case(label: "whitespace only", text: "  \n ", code: .dataError, mentions: ["only whitespace"]),
        Case(label: "top level is an array", text: "[]", code: .dataError, mentions: ["$", "object"]),
        Case(label: "wrong type: runs is a string",
             text: ScenarioText.replacing("\"runs\": 10", with: "\"runs\": \"ten\""), code: .dataError,
             mentions: ["$.campaign.runs"]),
        Case(label: "wrong type: workload is a number",
             text: ScenarioText.replacing("\"download-manager\"", with: "7"), code: .dataError,
             mentions: ["$.workload"]),
        Case(label: "unknown key with a suggestion",
             text: ScenarioText.replacing("\"profile\"", with: "\"profil\""), code: .dataError,
             mentions: ["profil", "profile"]),
        Case(label: "unknown nested key",
             text: ScenarioText.replacing("\"horizonSeconds\"", with: "\"horizonSecond\""), code: .dataError,
             mentions: ["$.campaign", "horizonSeconds"]),
        Case(label: "unknown workload", text: ScenarioText.replacing("\"download-manager\"", with: "\"downloader\""),
             code: .dataError, mentions: ["$.workload", "\"download-manager\""]),
        Case(label: "unknown variant", text: ScenarioText.replacing("\"p1-overwritten-task-id\"", with: "\"p9\""),
             code: .dataError, mentions: ["$.variant"]),
        Case(label: "unknown profile", text: ScenarioText.replacing("\"ios17\"", with: "\"ios99\""),
             code: .dataError, mentions: ["$.profile", "ios17"]),
        Case(label: "unknown invariant in the list",
             text: ScenarioText.replacing("\"expect\"", with: "\"invariants\": [\"no-such-rule\"], \"expect\""),
             code: .dataError, mentions: ["$.invariants[0]", "no-such-rule"]),
        Case(label: "expectation names an unknown invariant",
             text: ScenarioText.replacing("\"every-begin-ended\"", with: "\"every-begin-endd\""), code: .dataError,
             mentions: ["$.expect"]),
        Case(label: "negative runs", text: ScenarioText.replacing("\"runs\": 10", with: "\"runs\": -5"),
             code: .dataError, mentions: ["$.campaign.runs"]),
        Case(label: "zero runs", text: ScenarioText.replacing("\"runs\": 10", with: "\"runs\": 0"),
             code: .dataError, mentions: ["$.campaign.runs"]),
        Case(label: "zero horizon", text: ScenarioText.replacing("\"horizonSeconds\": 600", with: "\"horizonSeconds\": 0"),
             code: .dataError, mentions: ["$.campaign.horizonSeconds"]),
        Case(label: "huge horizon",
             text: ScenarioText.replacing("\"horizonSeconds\": 600", with: "\"horizonSeconds\": 1e300"),
             code: .dataError, mentions: ["$.campaign.horizonSeconds"]),
        Case(label: "fractional runs", text: ScenarioText.replacing("\"runs\": 10", with: "\"runs\": 2.5"),
             code: .dataError, mentions: ["$.campaign.runs"]),
        Case(label: "bad seed in the file", text: ScenarioText.replacing("\"0x1\"", with: "\"0xZZ\""),
             code: .dataError, mentions: ["$.campaign.seed"]),
        Case(label: "rate above 1",
             text: ScenarioText.replacing("\"campaign\"",
                 with: "\"environment\": {\"faults\": {\"beginFailureProbability\": 1.5}}, \"campaign\""),
             code: .dataError, mentions: ["$.environment.faults.beginFailureProbability"]),
        Case(label: "unknown environment preset",
             text: ScenarioText.replacing("\"campaign\"", with: "\"environment\": {\"preset\": \"storm\"}, \"campaign\""),
             code: .dataError, mentions: ["$.environment.preset", "fault-storm"]),
        Case(label: "negative weight",
             text: ScenarioText.replacing("\"campaign\"", with: "\"environment\": {\"weights\": {\"home\": -1}}, \"campaign\""),
             code: .dataError, mentions: ["$.environment.weights.home"]),
        Case(label: "duplicate key", text: ScenarioText.replacing("\"profile\": \"ios17\"",
             with: "\"profile\": \"ios17\", \"profile\": \"ios12\""), code: .dataError, mentions: ["profile"]),
        Case(label: "missing required key", text: ScenarioText.replacing("\"profile\": \"ios17\",", with: ""),
             code: .dataError, mentions: ["profile"]),
    ]

    @Test(arguments: cases)
    func badScenarioGetsItsExitCodeAndOneLine(_ badCase: Case) {
        let folder = TemporaryFolder()
        let file = folder.write("scenario.json", badCase.text)
        let run = CLIRun(["replay", file, "--seed", "0x1"])
        #expect(run.code == badCase.code, "\(run.stderr)")
        #expect(run.errorLines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains(file), "the message names the file: \(run.stderr)")
        for fragment in badCase.mentions {
            #expect(run.stderr.contains(fragment), "expected '\(fragment)' in: \(run.stderr)")
        }
        #expect(run.stdout.isEmpty)
    }

    @Test func binaryGarbageIsADataError() {
        let folder = TemporaryFolder()
        var state: UInt64 = 0x9e3779b97f4a7c15
        let bytes = (0..<512).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let file = folder.write("garbage.json", bytes: bytes)
        let run = CLIRun(["replay", file, "--seed", "0x1"])
        #expect(run.code == .dataError)
        #expect(run.errorLines.count == 1)
    }

    @Test func missingFileIsNoInput() {
        let run = CLIRun(["replay", "/nonexistent/scenario.json", "--seed", "0x1"])
        #expect(run.code == .noInput)
        #expect(run.stderr.contains("/nonexistent/scenario.json"))
        #expect(run.stderr.contains("no such file"))
    }

    @Test func directoryGivenAsAFileIsNoInput() {
        let folder = TemporaryFolder()
        let run = CLIRun(["replay", folder.path, "--seed", "0x1"])
        #expect(run.code == .noInput)
        #expect(run.stderr.contains("directory"))
    }

    @Test func duplicateScenarioNamesInADirectoryAreADataError() {
        let folder = TemporaryFolder()
        folder.write("a.json", ScenarioText.valid)
        folder.write("b.json", ScenarioText.valid)
        let run = CLIRun(["list", "--scenarios", folder.path])
        #expect(run.code == .dataError)
        #expect(run.errorLines.count == 1)
        #expect(run.stderr.contains("duplicate scenario name 'bad-input-base'"), "\(run.stderr)")
        #expect(run.stderr.contains("a.json"))
    }
}
