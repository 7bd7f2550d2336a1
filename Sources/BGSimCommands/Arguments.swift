/// The command line after the command name, split into options and positional arguments.
///
/// ```swift
/// var args = try Arguments(["Scenarios/a.json", "--runs", "100", "--quiet"],
///                          valued: ["--runs"], flags: ["--quiet"])
/// let runs = try args.int("--runs", in: 1...10_000_000)   // 100
/// ```
///
/// Contract: an option not in `valued` or `flags` is a usage error; so is a valued option with
/// no value, or one given twice. `--name=value` is accepted as well as `--name value`.
struct Arguments {
    private(set) var positional: [String] = []
    private var values: [(name: String, value: String)] = []
    private var flags: [String] = []

    init(_ arguments: [String], valued: [String], flags allowedFlags: [String]) throws(CLIError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-"), argument != "-" else {
                positional.append(argument)
                continue
            }
            var name = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            if allowedFlags.contains(name) && inline == nil {
                flags.append(name)
            } else if valued.contains(name) {
                if values.contains(where: { $0.name == name }) { throw .usage("option \(name) is given twice") }
                if let inline {
                    values.append((name, inline))
                } else {
                    guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                        throw .usage("option \(name) needs a value")
                    }
                    values.append((name, arguments[index]))
                    index += 1
                }
            } else {
                let known = (valued + allowedFlags).sorted().joined(separator: ", ")
                throw .usage("unknown option '\(name)' (this command takes: \(known.isEmpty ? "no options" : known))")
            }
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    func value(_ name: String) -> String? { values.first { $0.name == name }?.value }

    func int(_ name: String, in range: ClosedRange<Int>) throws(CLIError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw .usage("\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return number
    }
}
