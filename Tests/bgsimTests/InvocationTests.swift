import BGSimCommands
import Foundation
import Testing

/// Replay commands start the way bgsim was invoked, so they run as printed.
@Suite struct InvocationTests {
    @Test("swift run's product path prints as a swift run command", arguments: [
        (".build/x86_64-unknown-linux-gnu/debug/bgsim", "swift run bgsim"),
        (".build/x86_64-unknown-linux-gnu/release/bgsim", "swift run -c release bgsim"),
        (".build/arm64-apple-macosx/debug/bgsim", "swift run bgsim"),
        ("app/.build/x86_64-unknown-linux-gnu/debug/bgsim", "swift run --package-path app bgsim"),
        (".b2/x86_64-unknown-linux-gnu/debug/bgsim", "swift run --build-path .b2 bgsim"),
        ("/home/me/My App/.build/aarch64-unknown-linux-gnu/release/mysim",
         "swift run --package-path '/home/me/My App' -c release mysim"),
    ])
    func swiftRun(argv0: String, expected: String) {
        #expect(Invocation.prefix(argv0: argv0, environment: [:]) == expected)
    }

    @Test("any other path prints as invoked; a bare name was found on PATH", arguments: [
        (".build/release/bgsim", ".build/release/bgsim"),
        (".build/debug/bgsim", ".build/debug/bgsim"),
        ("/usr/local/bin/bgsim", "/usr/local/bin/bgsim"),
        ("bgsim", "bgsim"),
        ("./tools/bg sim", "'./tools/bg sim'"),
        ("", "bgsim"),
    ])
    func asInvoked(argv0: String, expected: String) {
        #expect(Invocation.prefix(argv0: argv0, environment: [:]) == expected)
    }

    @Test("BGSIM_INVOCATION overrides detection")
    func override() {
        let environment = ["BGSIM_INVOCATION": "docker run img bgsim"]
        #expect(Invocation.prefix(argv0: ".build/x86_64-unknown-linux-gnu/debug/bgsim", environment: environment)
            == "docker run img bgsim")
        #expect(Invocation.prefix(argv0: "bgsim", environment: ["BGSIM_INVOCATION": ""]) == "bgsim")
    }

    @Test("the injected prefix starts every printed, reported and JUnit replay command")
    func injected() throws {
        let folder = TemporaryFolder()
        let scenario = folder.write("p1.json", CampaignCommandTests.smallP1)
        let report = folder.path + "/r.json"
        let junit = folder.path + "/j.xml"
        let (io, captured) = CommandIO.capturing(invocation: "swift run bgsim")
        let code = BGSim.run(["fuzz", scenario, "--runs", "6", "--jobs", "1", "--quiet", "--report", report,
                              "--junit", junit], io: io)
        #expect(code == .success, "\(captured.stderr)")
        #expect(captured.stdout.contains("    replay: swift run bgsim replay \(scenario) --seed 0x"))
        #expect(captured.stdout.contains(": swift run bgsim replay \(scenario) --choices c1."))
        let reportText = try String(contentsOfFile: report, encoding: .utf8)
        #expect(reportText.contains("\"replay\": \"swift run bgsim replay \(scenario) --seed 0x"))
        let junitText = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(junitText.contains("replay: swift run bgsim replay \(scenario) --seed 0x"))
        #expect(!reportText.contains("\"bgsim replay") && !junitText.contains("replay: bgsim replay"))
    }
}
