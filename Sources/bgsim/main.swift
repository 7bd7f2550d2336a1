import BGSimCommands
import Foundation

#if os(Linux)
    let executable = "/proc/self/exe"  // isolated runs start this same program as their child
#else
    let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
#endif
let io = CommandIO(
    writeOut: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
    writeErr: { text in FileHandle.standardError.write(Data(text.utf8)) },
    stderrIsTerminal: isatty(STDERR_FILENO) == 1,
    childExecutable: executable)
Interrupt.shared.install()
BGSim.installCrashHandling()
exit(BGSim.run(Array(CommandLine.arguments.dropFirst()), io: io).rawValue)
