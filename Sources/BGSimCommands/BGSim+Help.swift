extension BGSim {
    /// The usage line of every command, in order: what `bgsim help` and README.md's command
    /// block show.
    static var usageLines: [String] { usageLines(tool: "bgsim") }

    /// ``usageLines`` as the program named `tool` prints them.
    static func usageLines(tool: String) -> [String] { commands.flatMap { $0.declaration.usageLines(tool: tool) } }

    /// The text of `bgsim help`.
    static var helpText: String { helpText(tool: "bgsim") }

    /// ``helpText`` as the program named `tool` (a user's own bgsim) prints it.
    static func helpText(tool: String) -> String {
        let width = (commands.map { $0.declaration.name.count }.max() ?? 0) + 2
        let title = tool == "bgsim" ? "bgsim \(version)" : "\(tool) (BackgroundTaskKit's bgsim \(version))"
        var lines = ["\(title): deterministic simulation of iOS background work; fuzz, replay, gate CI",
                     "", "Usage:"]
        lines += usageLines(tool: tool).map { "  " + $0 }
        lines += ["", "Commands:"]
        for command in commands {
            let name = command.declaration.name
            lines.append("  " + name + String(repeating: " ", count: width - name.count) + command.declaration.abstract)
        }
        lines += ["", "Exit codes:"]
        for code in ExitCode.allCases {
            let number = String(code.rawValue)
            lines.append("  " + number + String(repeating: " ", count: 5 - number.count) + code.meaning)
        }
        lines += ["", "Every option of one command: \(tool) help COMMAND, or \(tool) COMMAND --help."]
        return lines.joined(separator: "\n")
    }
}
