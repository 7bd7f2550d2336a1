/// The `bgsim help CMD` text, derived from the declaration.
///
/// ```swift
/// print(MergeCommand.declaration.helpText)
/// // bgsim merge: join shard reports into the report one unsharded run gives
/// //
/// // Usage:
/// //   bgsim merge REPORT... --report FILE
/// // …
/// ```
///
/// Contract: every declared option and the positional appear with their help line; notes
/// (required, repeatable, exactly one of) are derived from their kind; no trailing newline.
extension CommandDeclaration {
    var helpText: String { helpText(tool: "bgsim") }

    /// ``helpText`` as the program named `tool` (a user's own bgsim) prints it.
    func helpText(tool: String) -> String {
        var lines = ["\(tool) \(name): \(abstract)", "", "Usage:"]
        lines += usageLines(tool: tool).map { "  " + $0 }
        let width = ((options.map(\.label.count) + [Self.helpLabel.count]).max() ?? 0) + 2
        if let positional {
            lines += ["", "Arguments:", Self.row(positional.label, help(for: positional), width: width)]
        }
        lines += ["", "Options:"]
        for option in options where !option.isPositional {
            lines.append(Self.row(option.label, help(for: option), width: width))
        }
        lines.append(Self.row(Self.helpLabel, "show this help", width: width))
        if !discussion.isEmpty { lines += [""] + discussion }
        lines += ["", "Every command and the exit codes: \(tool) help"]
        return lines.joined(separator: "\n")
    }

    static let helpLabel = "-h, --help"

    /// The command that prints this help: `bgsim help fuzz` (`bgsim help` for help itself).
    var helpCommand: String { helpCommand(tool: "bgsim") }

    /// ``helpCommand`` for the program named `tool`.
    func helpCommand(tool: String) -> String { name == "help" ? "\(tool) help" : "\(tool) help \(name)" }

    /// The help line with what the kind implies.
    func help(for option: OptionDeclaration) -> String {
        var notes: [String] = []
        if exactlyOneOf.contains(option.name) {
            let others = exactlyOneOf.filter { $0 != option.name }.joined(separator: " or ")
            notes.append("give this or \(others), not both")
        } else if option.isRequired && !option.isPositional {
            notes.append("required")
        }
        if option.kind == .repeatable { notes.append("may be given more than once") }
        return notes.isEmpty ? option.help : "\(option.help) (\(notes.joined(separator: "; ")))"
    }

    /// `  --runs N   help…`, the help wrapped at 100 columns under itself.
    private static func row(_ label: String, _ help: String, width: Int) -> String {
        let indent = String(repeating: " ", count: 2 + width)
        let wrapped = TextWrap.lines(help, width: max(40, 100 - indent.count))
        let first = "  " + label + String(repeating: " ", count: max(1, width - label.count)) + (wrapped.first ?? "")
        return ([first] + wrapped.dropFirst().map { indent + $0 }).joined(separator: "\n")
    }
}
