/// What one `bgsim` command accepts, declared once: ``Arguments`` parses by it, and its usage
/// lines, `bgsim help CMD` text and "did you mean" suggestions are derived from it, so they
/// cannot drift apart (swift-argument-parser's idea, in a few lines of our own).
///
/// ```swift
/// let merge = CommandDeclaration(
///     name: "merge", abstract: "join shard reports into one report",
///     options: [.positional("REPORT", .oneOrMore, help: "shard reports"),
///               .valued("--report", "FILE", required: true, help: "the merged report")])
/// merge.usageLines   // ["bgsim merge REPORT... --report FILE"]
/// ```
///
/// Contract: ``problems`` is empty for every command `bgsim` ships (a test checks it): names are
/// unique, options start with `--`, at most one positional, and ``exactlyOneOf`` names declared
/// optional valued options.
struct CommandDeclaration: Sendable {
    /// The command's name (`fuzz`).
    var name: String
    /// One line for the command list of `bgsim help`.
    var abstract: String
    /// Options and the positional, in the order usage lines and help show them.
    var options: [OptionDeclaration]
    /// Options of which exactly one must be given (`replay`'s `--seed` and `--choices`); each gets
    /// its own usage line.
    var exactlyOneOf: [String] = []
    /// Lines printed after the options by `bgsim help CMD`.
    var discussion: [String] = []

    /// The options that `--help` and `-h` stand beside in every command.
    static let helpNames = ["--help", "-h"]

    /// The declared option (not the positional) with this name.
    func option(named name: String) -> OptionDeclaration? {
        options.first { $0.name == name && !$0.isPositional }
    }

    /// The positional arguments' declaration, if the command takes any.
    var positional: OptionDeclaration? { options.first { $0.isPositional } }

    /// The options' names, in declaration order.
    var optionNames: [String] { options.filter { !$0.isPositional }.map(\.name) }

    /// One usage line per alternative of ``exactlyOneOf`` (one line when there is none).
    var usageLines: [String] { usageLines(tool: "bgsim") }

    /// ``usageLines`` as the program named `tool` prints them.
    func usageLines(tool: String) -> [String] {
        let alternatives = exactlyOneOf.isEmpty ? [nil] : exactlyOneOf.map { Optional($0) }
        return alternatives.map { chosen in
            let words = options.compactMap { option -> String? in
                guard exactlyOneOf.contains(option.name) else { return option.synopsis }
                return option.name == chosen ? option.label : nil
            }
            return ([tool, name] + words).joined(separator: " ")
        }
    }

    /// What is wrong with this declaration, one sentence each; empty when it is well formed.
    var problems: [String] {
        var found: [String] = []
        var seen: [String] = []
        for option in options {
            if seen.contains(option.name) { found.append("\(name): \(option.name) is declared twice") }
            seen.append(option.name)
            if Self.helpNames.contains(option.name) { found.append("\(name): \(option.name) is reserved for help") }
            if option.help.isEmpty { found.append("\(name): \(option.name) has no help line") }
            if option.isPositional {
                if option.name.hasPrefix("-") { found.append("\(name): positional \(option.name) starts with '-'") }
            } else if !option.name.hasPrefix("--") || option.name.count < 3 || option.name.contains("=") {
                found.append("\(name): option '\(option.name)' must be --name")
            }
        }
        if options.filter(\.isPositional).count > 1 { found.append("\(name): more than one positional declared") }
        for member in exactlyOneOf where option(named: member)?.kind != .valued(required: false) {
            found.append("\(name): exactlyOneOf member \(member) is not a declared optional valued option")
        }
        return found
    }
}
