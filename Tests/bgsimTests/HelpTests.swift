@testable import BGSimCommands
import Foundation
import Testing

/// Issue 14: every command's help is derived from the declaration it parses with, exits 0 on
/// stdout, and explains every option; README's command block is the derived usage.
@Suite struct HelpTests {
    static let commandNames = BGSim.commands.map { $0.declaration.name }

    /// Text with every run of spaces and newlines made one space (help lines wrap).
    static func flattened(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    @Test("every command's --help, -h and 'bgsim help CMD' exit 0 and explain each declared option",
          arguments: commandNames)
    func helpExplainsEveryOption(name: String) throws {
        let declaration = try BGSim.command(named: name).declaration
        for arguments in [[name, "--help"], [name, "-h"], ["help", name], [name, "--runz", "-h"]] {
            let run = CLIRun(arguments)
            #expect(run.code == .success, "\(arguments): \(run.stderr)")
            #expect(run.stderr.isEmpty, "\(arguments): \(run.stderr)")
            let text = Self.flattened(run.stdout)
            for line in declaration.usageLines {
                #expect(text.contains(line), "\(arguments): usage line '\(line)' missing")
            }
            for option in declaration.options {
                #expect(text.contains(option.label + " " + Self.flattened(option.help)),
                        "\(arguments): \(option.label) and its help line missing from:\n\(run.stdout)")
            }
        }
    }

    @Test("--help after -- is an argument, not a request for help")
    func helpAfterDoubleDashIsAnArgument() {
        let run = CLIRun(["list", "--", "--help"])
        #expect(run.code == .usage)
        #expect(run.stderr.contains("list takes no arguments, got '--help'"), "\(run.stderr)")
    }

    @Test("bgsim help shows every usage line, every command and every exit code")
    func topLevelHelp() {
        for arguments in [["help"], ["--help"], ["-h"]] {
            let run = CLIRun(arguments)
            #expect(run.code == .success)
            for line in BGSim.usageLines { #expect(run.stdout.contains("  " + line + "\n"), "\(line)") }
            for name in Self.commandNames { #expect(run.stdout.contains("\n  \(name) ")) }
            for code in ExitCode.allCases { #expect(run.stdout.contains("  \(code.rawValue) ")) }
        }
    }

    @Test("the options the issue found missing from the old usage are in the derived usage")
    func formerlyStaleUsage() {
        let usage = BGSim.usageLines.joined(separator: "\n")
        #expect(usage.contains("bgsim check [PATH...] [--jobs J] [--junit FILE] [--quiet]"))
        #expect(usage.contains("bgsim bench [--json] [--output FILE] [--quick]"))
    }

    @Test("README.md's bgsim command block is exactly the derived usage lines")
    func readmeSynopsisIsTheDerivedUsage() throws {
        let readme = try String(contentsOfFile: PackageRoot.path + "/README.md", encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        let heading = try #require(lines.firstIndex(of: "## bgsim"), "README.md has no '## bgsim' section")
        let open = try #require(lines[heading...].firstIndex(of: "```"), "no code block under '## bgsim'")
        let close = try #require(lines[(open + 1)...].firstIndex(of: "```"))
        let block = Array(lines[(open + 1)..<close])
        #expect(block == BGSim.usageLines, """
            README.md's command block differs from the derived usage; paste this block:
            \(BGSim.usageLines.joined(separator: "\n"))
            """)
    }
}
