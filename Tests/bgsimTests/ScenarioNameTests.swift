import BGSimCommands
import BackgroundTaskSimulator
import Foundation
import Testing

/// Issue 32, item 5: a scenario's name becomes file names and terminal text, so it is checked
/// when the scenario is parsed: exit 65 naming the field `name`, never a cut path or raw escape.
@Suite struct ScenarioNameTests {
    static func scenario(named json: String) -> String {
        ScenarioText.replacing(#""name": "bad-input-base""#, with: #""name": "\#(json)""#)
    }

    @Test("a name with a control character, a separator, a leading dot or over 100 bytes is exit 65 at $.name",
          arguments: [
            (#"cut\u0000here"#, "a control character (U+0000) at character 4"),
            (#"two\nlines"#, "a control character (U+000A) at character 4"),
            (#"clear\u001b[2J"#, "a control character (U+001B) at character 6"),
            (#"bidi\u202Eflip"#, "an invisible format character (U+202E) at character 5"),
            (#"tab\there"#, "a control character (U+0009)"),
            (#"no space"#, "a space (U+0020) at character 3"),
            (#"a/b"#, "a '/' (U+002F)"),
            (#"a\\b"#, #"a '\' (U+005C)"#),
            (".hidden", "starts with '.'"),
            ("..", "starts with '.'"),
            ("", "the name is empty"),
            (String(repeating: "n", count: 101), "101 bytes long (UTF-8), over the limit of 100"),
            (String(repeating: "é", count: 51), "102 bytes long (UTF-8), over the limit of 100"),
          ])
    func rejected(json: String, problem: String) {
        let folder = TemporaryFolder()
        let file = folder.write("named.json", Self.scenario(named: json))
        let run = CLIRun(["fuzz", file, "--runs", "1", "--quiet"])
        #expect(run.code == .dataError, "\(json): \(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(run.errorLines.count == 1, "one line, whatever the name holds: \(run.stderr.debugDescription)")
        #expect(run.stderr.hasPrefix("bgsim fuzz: \(file): $.name: the name "), "\(run.stderr)")
        #expect(run.stderr.contains(problem), "\(run.stderr)")
        #expect(!run.stderr.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" },
                "no control character reaches the terminal: \(run.stderr.debugDescription)")
    }

    @Test("printable names are accepted: kebab-case, other scripts, punctuation, exactly 100 bytes",
          arguments: ["token-correct-ios17", "Upload_v2.1", "téléchargement", "上传-ios17", "a+b=c",
                      String(repeating: "n", count: 100)])
    func accepted(name: String) throws {
        let scenario = try ScenarioLoader.parse(Array(Self.scenario(named: name).utf8), file: "named.json")
        #expect(scenario.name == name)
    }

    @Test("every scenario in the repository, examples included, still parses under the name rule")
    func repositoryScenariosParse() throws {
        let examples = PackageRoot.path + "/Scenarios/Examples/UploadKit/Scenarios"
        let scenarios = try ScenarioLoader.loadAll(in: PackageRoot.path + "/Scenarios")
        #expect(scenarios.count > 100)
        for scenario in scenarios { #expect(ScenarioName.problem(in: scenario.name) == nil, "\(scenario.file)") }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: examples)) ?? []).filter { $0.hasSuffix(".json") }
        for name in names.sorted() {
            let text = try #require(FileManager.default.contents(atPath: examples + "/" + name))
            let object = try #require(try JSONSerialization.jsonObject(with: text) as? [String: Any])
            let scenarioName = try #require(object["name"] as? String)
            #expect(ScenarioName.problem(in: scenarioName) == nil, "\(name)")
        }
    }
}
