// TEMPORARY until the campaign runner lands (excluded files in Package.swift): only `list`
// and `replay` are wired.
extension BGSim {
    static func runCampaignCommand(_ command: String, _ rest: [String], io: CommandIO,
                                   interrupt: Interrupt) throws(CLIError) -> ExitCode {
        switch command {
        case "replay": return try ReplayCommand.run(rest, io: io)
        default: throw .usage("unknown command '\(command)'")
        }
    }
}
