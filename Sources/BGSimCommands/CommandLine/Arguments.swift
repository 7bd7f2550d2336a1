import DeterministicSimulation

/// A command line parsed by a command's ``CommandDeclaration``: raw strings, checked for shape
/// (known options, values present, arity) but not yet for meaning; each command's `validate`
/// turns them into typed options.
///
/// ```swift
/// let args = try Arguments(parsing: ["Scenarios/a.json", "--runs=100", "--quiet"],
///                          for: FuzzCommand.declaration)
/// args.positional                               // ["Scenarios/a.json"]
/// let runs = try args.int("--runs", in: 1...10_000_000)   // 100
/// ```
///
/// Contract: `--name value` and `--name=value` both work; a value that starts with `--` is not
/// taken as a value (`--seed -5` is, and fails validation). Usage errors (exit 64): an undeclared
/// option (with "did you mean" when one is close), a valued option with no value or given twice,
/// a value for a flag, a missing required option, not exactly one of ``CommandDeclaration/exactlyOneOf``,
/// and a positional count outside the declared arity. After `--` every argument is positional.
struct Arguments: Sendable {
    private(set) var positional: [String] = []
    private var values: [(name: String, value: String)] = []
    private var flags: [String] = []

    /// Whether the command line asks for the command's help: `--help` or `-h` anywhere before `--`.
    static func asksForHelp(_ arguments: [String]) -> Bool {
        for argument in arguments {
            if argument == "--" { return false }
            if CommandDeclaration.helpNames.contains(argument) { return true }
        }
        return false
    }

    init(parsing arguments: [String], for declaration: CommandDeclaration) throws(CLIError) {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positional.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let option = declaration.option(named: name) else {
                throw Self.unknownOption(name, in: declaration)
            }
            if option.kind == .flag {
                if inline != nil { throw .usage("option \(name) takes no value (write \(name) alone)") }
                flags.append(name)
                continue
            }
            if option.kind != .repeatable, values.contains(where: { $0.name == name }) {
                throw .usage("option \(name) is given twice; give it once")
            }
            let value: String
            if let inline {
                value = inline
            } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                value = arguments[index]
                index += 1
            } else {
                value = ""
            }
            if value.isEmpty { throw .usage("option \(name) needs a value (\(option.label))") }
            values.append((name, value))
        }
        try checkRequired(declaration)
        try checkArity(declaration)
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value of a valued option (the first, for a repeatable one).
    func value(_ name: String) -> String? { values.first { $0.name == name }?.value }

    /// Every value of a repeatable option, in command-line order.
    func values(_ name: String) -> [String] { values.filter { $0.name == name }.map(\.value) }

    func int(_ name: String, in range: ClosedRange<Int>) throws(CLIError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw .usage("\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return number
    }

    func seed(_ name: String) throws(CLIError) -> Seed? {
        guard let text = value(name) else { return nil }
        do {
            return try Seed(parsing: text)
        } catch {
            throw .usage("\(name): \(error.description)")
        }
    }

    private func checkRequired(_ declaration: CommandDeclaration) throws(CLIError) {
        for option in declaration.options where !option.isPositional && option.isRequired && value(option.name) == nil {
            throw .usage("\(declaration.name) needs \(option.label)")
        }
        let given = declaration.exactlyOneOf.filter { value($0) != nil }
        if !declaration.exactlyOneOf.isEmpty, given.count != 1 {
            let labels = declaration.exactlyOneOf.compactMap { declaration.option(named: $0)?.label }
            throw .usage("\(declaration.name) needs exactly one of \(labels.joined(separator: " or "))")
        }
    }

    private func checkArity(_ declaration: CommandDeclaration) throws(CLIError) {
        let count = positional.count
        guard let declared = declaration.positional, case .positional(let arity) = declared.kind else {
            if let first = positional.first { throw .usage("\(declaration.name) takes no arguments, got '\(first)'") }
            return
        }
        switch arity {
        case .one where count != 1:
            throw .usage("\(declaration.name) takes exactly one \(declared.name), got \(count)")
        case .optional where count > 1:
            throw .usage("\(declaration.name) takes at most one \(declared.name), got \(count)")
        case .oneOrMore where count == 0:
            throw .usage("\(declaration.name) needs at least one \(declared.name)")
        default:
            return
        }
    }

    /// "unknown option '--rnus'; did you mean '--runs'?", or the options the command takes.
    static func unknownOption(_ name: String, in declaration: CommandDeclaration) -> CLIError {
        let known = declaration.optionNames
        if let near = NameSuggestion.option(for: name, among: known + ["--help"]) {
            return .usage("unknown option '\(name)'; did you mean '\(near)'?")
        }
        let list = known.isEmpty ? "no options" : known.joined(separator: ", ")
        return .usage("unknown option '\(name)' (\(declaration.name) takes \(list))")
    }
}
