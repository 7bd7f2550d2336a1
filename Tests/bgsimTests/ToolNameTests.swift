import BGSimCommands
import Foundation
import Testing

/// A user's own bgsim (`BGSim.main(workloads:)` in their package) speaks in its own name: its
/// version, help, usage hints and errors say `upload-bgsim`, not `bgsim` (an issue-35 rough edge),
/// and the documents it points to are named as BackgroundTaskKit's.
@Suite struct ToolNameTests {
    static func run(_ arguments: [String], as tool: String) -> (code: ExitCode, stdout: String, stderr: String) {
        let (io, captured) = CommandIO.capturing(toolName: tool)
        let code = BGSim.run(arguments, io: io)
        return (code, captured.stdout, captured.stderr)
    }

    @Test("the name is argv[0]'s last component", arguments: [
        (".build/x86_64-unknown-linux-gnu/debug/upload-bgsim", "upload-bgsim"),
        ("/usr/local/bin/bgsim", "bgsim"),
        ("mysim", "mysim"),
        ("", "bgsim"),
    ])
    func nameFromArgv0(argv0: String, expected: String) {
        #expect(Invocation.toolName(argv0: argv0) == expected)
    }

    @Test("version and help name the user's program, and say whose bgsim it is")
    func versionAndHelp() {
        let version = Self.run(["--version"], as: "upload-bgsim")
        #expect(version.stdout == "upload-bgsim (BackgroundTaskKit's bgsim \(BGSim.version))\n")
        let help = Self.run(["help"], as: "upload-bgsim")
        #expect(help.stdout.hasPrefix("upload-bgsim (BackgroundTaskKit's bgsim \(BGSim.version)): "))
        #expect(help.stdout.contains("\n  upload-bgsim fuzz [SCENARIO...]"))
        #expect(help.stdout.contains("upload-bgsim help COMMAND"))
        #expect(!help.stdout.contains("  bgsim "), "a usage line still says bgsim")
        let fuzzHelp = Self.run(["fuzz", "--help"], as: "upload-bgsim")
        #expect(fuzzHelp.stdout.hasPrefix("upload-bgsim fuzz: "))
        #expect(fuzzHelp.stdout.hasSuffix("Every command and the exit codes: upload-bgsim help\n"))
    }

    @Test("errors and usage hints name the user's program")
    func errors() {
        let unknown = Self.run(["fuz"], as: "upload-bgsim")
        #expect(unknown.code == .usage)
        #expect(unknown.stderr.hasPrefix("upload-bgsim: unknown command 'fuz'"))
        #expect(unknown.stderr.contains("Run 'upload-bgsim help' for usage."))
        let badFlag = Self.run(["fuzz", "--runz", "3"], as: "upload-bgsim")
        #expect(badFlag.stderr.hasPrefix("upload-bgsim fuzz: "))
        #expect(badFlag.stderr.contains("Run 'upload-bgsim help fuzz' for usage."))
        let missing = Self.run(["fuzz", "NoSuchFolder"], as: "upload-bgsim")
        #expect(missing.stderr.hasPrefix("upload-bgsim fuzz: "))
    }

    @Test("the package's own bgsim is unchanged")
    func bgsimItself() {
        #expect(Self.run(["--version"], as: "bgsim").stdout == "bgsim \(BGSim.version)\n")
        #expect(Self.run(["fuz"], as: "bgsim").stderr.hasPrefix("bgsim: unknown command 'fuz'"))
    }
}
