@testable import BGSimCommands
import Testing

/// The declaration type itself: well-formedness checks, derived usage lines, and the parser
/// that reads by it.
@Suite struct CommandDeclarationTests {
    static let sample = CommandDeclaration(
        name: "demo", abstract: "a command for the tests",
        options: [
            .positional("FILE", .zeroOrMore, help: "input files"),
            .valued("--seed", "S", help: "a seed"),
            .valued("--choices", "C", help: "a choice token"),
            .repeatable("--tag", "T", help: "a tag"),
            .valued("--out", "FILE", required: true, help: "the output"),
            .flag("--quiet", help: "no progress"),
        ],
        exactlyOneOf: ["--seed", "--choices"])

    @Test("every command bgsim ships has a well-formed declaration")
    func shippedDeclarationsAreWellFormed() {
        for command in BGSim.commands {
            #expect(command.declaration.problems == [], "\(command.declaration.name)")
        }
        let names = BGSim.commands.map { $0.declaration.name }
        #expect(Set(names).count == names.count, "two commands share a name: \(names)")
    }

    @Test("a declaration with two options of the same name is rejected")
    func duplicateOptionIsAProblem() {
        var declaration = Self.sample
        declaration.options.append(.flag("--quiet", help: "declared again"))
        #expect(declaration.problems == ["demo: --quiet is declared twice"])
    }

    @Test("malformed declarations are reported, one sentence each", arguments: [
        (OptionDeclaration.flag("-q", help: "short"), "must be --name"),
        (.flag("--help", help: "mine"), "reserved for help"),
        (.valued("--runs", "N", help: ""), "no help line"),
        (.positional("MORE", .oneOrMore, help: "a second positional"), "more than one positional"),
    ])
    func malformedDeclaration(option: OptionDeclaration, problem: String) {
        var declaration = Self.sample
        declaration.options.append(option)
        #expect(declaration.problems.count == 1)
        #expect(declaration.problems.first?.contains(problem) == true, "\(declaration.problems)")
    }

    @Test("exactlyOneOf must name optional valued options")
    func exactlyOneOfNamesValuedOptions() {
        var declaration = Self.sample
        declaration.exactlyOneOf = ["--seed", "--quiet"]
        #expect(declaration.problems == ["demo: exactlyOneOf member --quiet is not a declared optional valued option"])
    }

    @Test("usage lines: one per exactlyOneOf member, brackets from the kinds, declaration order")
    func usageLines() {
        #expect(Self.sample.usageLines == [
            "bgsim demo [FILE...] --seed S [--tag T]... --out FILE [--quiet]",
            "bgsim demo [FILE...] --choices C [--tag T]... --out FILE [--quiet]",
        ])
    }

    @Test("the parser: --name value, --name=value, repeatable values in order, -- ends options")
    func parsing() throws {
        let args = try Arguments(parsing: ["a", "--seed=-5", "--tag", "x", "--out", "o.json", "--tag=y", "--quiet",
                                           "--", "--not-an-option", "-h"], for: Self.sample)
        #expect(args.positional == ["a", "--not-an-option", "-h"])
        #expect(args.value("--seed") == "-5")
        #expect(args.values("--tag") == ["x", "y"])
        #expect(args.value("--out") == "o.json")
        #expect(args.flag("--quiet"))
        #expect(!args.flag("--choices"))
        #expect(!Arguments.asksForHelp(["a", "--", "-h"]))
        #expect(Arguments.asksForHelp(["a", "--seeds", "--help"]))
    }

    @Test("the parser's usage errors", arguments: [
        (["--out", "o"], "demo needs exactly one of --seed S or --choices C."),
        (["--seed", "1", "--choices", "c", "--out", "o"], "demo needs exactly one of --seed S or --choices C."),
        (["--seed", "1"], "demo needs --out FILE."),
        (["--seed", "1", "--seed", "2", "--out", "o"], "option --seed is given twice; give it once."),
        (["--seed", "--out", "o"], "option --seed needs a value (--seed S)."),
        (["--seed=", "--out", "o"], "option --seed needs a value (--seed S)."),
        (["--quiet=yes", "--seed", "1", "--out", "o"], "option --quiet takes no value (write --quiet alone)."),
        (["--tga", "t"], "unknown option '--tga'; did you mean '--tag'?"),
    ])
    func parseErrors(arguments: [String], message: String) {
        #expect(throws: CLIError(.usage, message)) {
            try Arguments(parsing: arguments, for: Self.sample)
        }
    }

    @Test("positional arity is checked from the declaration")
    func arity() {
        var declaration = Self.sample
        declaration.options[0] = .positional("FILE", .one, help: "one input")
        #expect(throws: CLIError(.usage, "demo takes exactly one FILE, got 2.")) {
            try Arguments(parsing: ["a", "b", "--seed", "1", "--out", "o"], for: declaration)
        }
        declaration.options[0] = .positional("FILE", .oneOrMore, help: "inputs")
        #expect(throws: CLIError(.usage, "demo needs at least one FILE.")) {
            try Arguments(parsing: ["--seed", "1", "--out", "o"], for: declaration)
        }
        declaration.options.removeFirst()
        #expect(throws: CLIError(.usage, "demo takes no arguments, got 'a'.")) {
            try Arguments(parsing: ["a", "--seed", "1", "--out", "o"], for: declaration)
        }
    }

    @Test("exit-code precedence: success < violation < nondeterminism < interrupted")
    func exitCodePrecedence() {
        let order: [ExitCode] = [.success, .violation, .nondeterminism, .interrupted]
        for (i, lower) in order.enumerated() {
            for higher in order[i...] {
                #expect(ExitCode.mostSevere(lower, higher) == higher, "\(lower) vs \(higher)")
                #expect(ExitCode.mostSevere(higher, lower) == higher, "\(higher) vs \(lower)")
            }
        }
        #expect(ExitCode.mostSevere() == .success)
        #expect(ExitCode.mostSevere(.interrupted, .cannotCreate) == .cannotCreate)
    }
}
