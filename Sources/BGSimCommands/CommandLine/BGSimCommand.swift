import DeterministicSimulation

/// A `bgsim` command: its declaration, `validate` (raw arguments to typed options, no files
/// touched) and `run` (inputs, outputs, work), as swift-argument-parser separates them.
///
/// ```swift
/// let code = try FuzzCommand.main(["Scenarios/a.json", "--runs", "100"], io: io, interrupt: .shared)
/// let options = try FuzzCommand.validate(Arguments(parsing: ["--runs", "5"], for: FuzzCommand.declaration))
/// ```
///
/// Contract of ``main(_:io:interrupt:)``: `--help` or `-h` prints the derived help to stdout and
/// returns 0 without parsing further. `validate` reads and writes no files, so its usage errors
/// (64) come before any input (65, 66) or output (73) error. Every usage error ends "Run 'bgsim
/// help CMD' for usage."
protocol BGSimCommand {
    associatedtype Options
    static var declaration: CommandDeclaration { get }
    static func validate(_ arguments: Arguments) throws(CLIError) -> Options
    static func run(_ options: Options, io: CommandIO, interrupt: Interrupt) throws(CLIError) -> ExitCode
}

extension BGSimCommand {
    static func main(_ arguments: [String], io: CommandIO, interrupt: Interrupt) throws(CLIError) -> ExitCode {
        if Arguments.asksForHelp(arguments) {
            io.out(declaration.helpText(tool: io.toolName))
            return .success
        }
        do {
            let options = try validate(Arguments(parsing: arguments, for: declaration))
            return try run(options, io: io, interrupt: interrupt)
        } catch {
            throw error.withUsageHint(declaration.helpCommand(tool: io.toolName))
        }
    }
}
