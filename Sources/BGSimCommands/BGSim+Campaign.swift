extension BGSim {
    static func runCampaignCommand(_ command: String, _ rest: [String], io: CommandIO,
                                   interrupt: Interrupt) throws(CLIError) -> ExitCode {
        switch command {
        case "fuzz": return try FuzzCommand.run(rest, io: io, interrupt: interrupt)
        case "check": return try CheckCommand.run(rest, io: io, interrupt: interrupt)
        case "replay": return try ReplayCommand.run(rest, io: io)
        case "merge": return try MergeCommand.run(rest, io: io)
        case "bench": return try BenchCommand.run(rest, io: io)
        default: throw .usage("unknown command '\(command)'")
        }
    }
}
