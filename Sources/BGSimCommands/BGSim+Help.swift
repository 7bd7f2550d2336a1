extension BGSim {
    /// The usage line of every command, in order: what `bgsim help` and README.md's command
    /// block show.
    static var usageLines: [String] { commands.flatMap { $0.declaration.usageLines } }

    /// The text of `bgsim help`.
    static var helpText: String {
        let width = (commands.map { $0.declaration.name.count }.max() ?? 0) + 2
        var lines = ["bgsim \(version): deterministic simulation of iOS background work; fuzz, replay, gate CI",
                     "", "Usage:"]
        lines += usageLines.map { "  " + $0 }
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
        lines += ["", "Every option of one command: bgsim help COMMAND, or bgsim COMMAND --help."]
        return lines.joined(separator: "\n")
    }
}
