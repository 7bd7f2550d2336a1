import BGSimCommands
import Foundation

let environment = ProcessInfo.processInfo.environment
let io = CommandIO(
    writeOut: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
    writeErr: { text in FileHandle.standardError.write(Data(text.utf8)) },
    stderrIsTerminal: isatty(STDERR_FILENO) == 1,
    invocation: Invocation.prefix(argv0: CommandLine.arguments.first ?? "bgsim", environment: environment),
    environment: environment,
    failureDatabase: CommandIO.defaultFailureDatabase)
Interrupt.shared.install()
exit(BGSim.run(Array(CommandLine.arguments.dropFirst()), io: io).rawValue)
