import DeterministicSimulation

/// `bgsim help [COMMAND]`: every command's usage, or one command's options, derived from the
/// commands' declarations (so it cannot go stale).
///
/// ```
/// bgsim help            # usage lines, commands, exit codes
/// bgsim help fuzz       # the same as bgsim fuzz --help
/// ```
enum HelpCommand: BGSimCommand {
    static let declaration = CommandDeclaration(
        name: "help", abstract: "show every command's usage, or one command's options",
        options: [.positional("COMMAND", .optional, help: "the command to explain (default: all of them)")])

    static func validate(_ arguments: Arguments) throws(CLIError) -> String? {
        guard let name = arguments.positional.first else { return nil }
        _ = try BGSim.command(named: name)
        return name
    }

    static func run(_ options: String?, io: CommandIO, interrupt: Interrupt) throws(CLIError) -> ExitCode {
        if let name = options {
            io.out(try BGSim.command(named: name).declaration.helpText(tool: io.toolName))
        } else {
            io.out(BGSim.helpText(tool: io.toolName))
        }
        return .success
    }
}
