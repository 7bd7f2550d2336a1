/// One thing a command accepts on its command line, declared once with its help line: parsing,
/// usage lines, `bgsim help CMD` and "did you mean" are all derived from it.
///
/// ```swift
/// let runs = OptionDeclaration.valued("--runs", "N", help: "runs per scenario")
/// runs.synopsis                 // "[--runs N]"
/// OptionDeclaration.positional("SCENARIO", .zeroOrMore, help: "scenario files").synopsis
/// // "[SCENARIO...]"
/// ```
///
/// Contract: an option's name starts with `--`; a positional's name is its value name in capitals
/// (`SCENARIO`). ``CommandDeclaration/problems`` checks both, and that no name is declared twice.
struct OptionDeclaration: Sendable, Equatable {
    /// How an option takes its value.
    enum Kind: Sendable, Equatable {
        /// Present or absent (`--quiet`); a value (`--quiet=yes`) is an error.
        case flag
        /// One value (`--runs 5` or `--runs=5`); given twice is an error.
        case valued(required: Bool)
        /// One value per occurrence, in command-line order.
        case repeatable
        /// The arguments that are not options.
        case positional(Arity)
    }

    /// How many positional arguments a command takes.
    enum Arity: Sendable, Equatable {
        case one, optional, zeroOrMore, oneOrMore
    }

    /// `--runs`, or for a positional its value name (`SCENARIO`).
    var name: String
    /// The placeholder for the value in usage lines (`N`, `FILE`); `nil` for a flag.
    var valueName: String?
    /// One line for `bgsim help CMD`: what it does and its default.
    var help: String
    var kind: Kind

    static func flag(_ name: String, help: String) -> OptionDeclaration {
        OptionDeclaration(name: name, valueName: nil, help: help, kind: .flag)
    }

    static func valued(_ name: String, _ valueName: String, required: Bool = false,
                       help: String) -> OptionDeclaration {
        OptionDeclaration(name: name, valueName: valueName, help: help, kind: .valued(required: required))
    }

    static func repeatable(_ name: String, _ valueName: String, help: String) -> OptionDeclaration {
        OptionDeclaration(name: name, valueName: valueName, help: help, kind: .repeatable)
    }

    static func positional(_ valueName: String, _ arity: Arity, help: String) -> OptionDeclaration {
        OptionDeclaration(name: valueName, valueName: valueName, help: help, kind: .positional(arity))
    }

    var isPositional: Bool {
        if case .positional = kind { return true }
        return false
    }

    var isRequired: Bool {
        switch kind {
        case .valued(let required): required
        case .positional(let arity): arity == .one || arity == .oneOrMore
        case .flag, .repeatable: false
        }
    }

    /// The option as written with its value: `--runs N`, `--quiet`, `PATH...`.
    var label: String {
        switch kind {
        case .flag: name
        case .valued, .repeatable: "\(name) \(valueName ?? "VALUE")"
        case .positional(let arity): arity == .zeroOrMore || arity == .oneOrMore ? name + "..." : name
        }
    }

    /// The option as a usage line shows it: brackets when optional, `...` when repeatable.
    var synopsis: String {
        switch kind {
        case .flag: "[\(label)]"
        case .valued(let required): required ? label : "[\(label)]"
        case .repeatable: "[\(label)]..."
        case .positional(let arity):
            switch arity {
            case .one: name
            case .optional: "[\(name)]"
            case .zeroOrMore: "[\(name)...]"
            case .oneOrMore: "\(name)..."
            }
        }
    }
}
