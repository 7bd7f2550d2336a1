import BackgroundTaskSimulator
import DeterministicSimulation
import SimulationFormats

/// The command that reproduces one failure, as printed and reported.
enum ReplayCommandText {
    static func seed(_ scenario: Scenario, _ seed: Seed) -> String {
        "bgsim replay \(scenario.file) --seed \(seed)"
    }

    static func choices(_ scenario: Scenario, _ choices: ChoiceSequence) -> String {
        "bgsim replay \(scenario.file) --choices \(choices.token)"
    }
}

/// Checks that output paths can be written, before any work (exit 73).
enum OutputPaths {
    static func check(_ paths: [String?]) throws(CLIError) {
        for case let path? in paths {
            do {
                try AtomicFile.checkWritable(path)
            } catch {
                throw CLIError(.cannotCreate, error.description)
            }
        }
    }

    static func write(_ text: String, to path: String) throws(CLIError) {
        do {
            try AtomicFile.write(text, to: path)
        } catch {
            throw CLIError(.cannotCreate, error.description)
        }
    }
}
