import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import SimulationFormats

/// The failure database: a folder of ``SavedFailure`` files (`.bgsim/failures/` in the working
/// directory by default), like Hypothesis's example database and the VOPR's seed lists. `fuzz`
/// saves each failure that goes against its scenario's expectation; every later `fuzz` and
/// `check` replays the saved failures of the scenarios it runs before their campaigns, and drops
/// the ones that no longer fail.
///
/// ```swift
/// let database = FailureDatabase(directory: ".bgsim/failures")
/// let replay = try database.replay(scenario)       // replays, drops what no longer fails
/// print(replay.summary)                            // "replayed 2 saved failures: 1 still fail"
/// try database.save(result.failures, of: scenario, verdict: verdict, ...)
/// ```
///
/// Contract: files are read in name order (never directory order) and written atomically; a file
/// that is not a saved failure of this format is an error (exit 65) naming it; the folder is
/// created only when something is saved.
struct FailureDatabase {
    /// The folder, as given (relative to the working directory, or absolute).
    let directory: String

    /// Every saved failure of `scenario` (by name), with its file's path.
    func entries(for scenario: Scenario) throws(CLIError) -> [(path: String, failure: SavedFailure)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var entries: [(path: String, failure: SavedFailure)] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let path = directory + "/" + name
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CLIError(.noInput, "\(path): cannot read this saved failure; fix its permissions, delete it, "
                    + "or run with --no-failure-db")
            }
            let value: JSONValue
            do {
                value = try JSONParser().parse([UInt8](data))
            } catch {
                throw CLIError(.dataError, "\(path): not a saved failure (\(error.description)); delete the file or "
                    + "run with --no-failure-db")
            }
            let failure = try SavedFailure(json: value, file: path)
            if failure.scenarioName == scenario.name { entries.append((path, failure)) }
        }
        return entries
    }

    /// Replays every saved failure of `scenario` (its shrunk choices, one run each), keeps those
    /// that still violate their invariant and deletes the others.
    func replay(_ scenario: Scenario) throws(CLIError) -> SavedFailureReplay {
        var replay = SavedFailureReplay()
        for (path, saved) in try entries(for: scenario) {
            var spec = scenario.runSpec
            spec.exploration = saved.strategy  // the choices mean a run of the strategy that saved them
            let outcome = SimulationRunner.run(spec, choices: ChoiceSource(replaying: saved.choices), keepTrace: false)
            replay.replayed += 1
            if outcome.violations.contains(where: { $0.invariant == saved.invariant }) {
                replay.stillFailing.append(saved)
            } else {
                try? FileManager.default.removeItem(atPath: path)
                replay.dropped.append(saved)
            }
        }
        return replay
    }

    /// Saves the campaign's failures that go against the scenario's expectation (every failure of
    /// a scenario that expects to pass; none of a planted-bug scenario, whose violations are what
    /// it asks for), unless a saved failure of the same invariant still fails. Returns what it saved.
    func save(_ result: CampaignResult, of scenario: Scenario, keeping replay: SavedFailureReplay,
              toolVersion: String) throws(CLIError) -> [SavedFailure] {
        guard scenario.expectation == .pass else { return [] }
        let kept = replay.stillFailing.map(\.invariant)
        var saved: [SavedFailure] = []
        for record in result.failures where !kept.contains(record.failure.invariant) {
            let failure = SavedFailure(scenarioName: scenario.name, scenarioFile: scenario.file,
                                       invariant: record.failure.invariant, message: record.failure.message,
                                       choices: record.choices, seed: record.seed, campaignSeed: result.options.seed,
                                       toolVersion: toolVersion,
                                       strategy: scenario.forRun(record.runIndex).strategy)
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw CLIError(.cannotCreate, "\(directory): cannot create the failure database folder "
                    + "(\(error.localizedDescription)); give --failure-db a writable folder or --no-failure-db")
            }
            try OutputPaths.write(JSONWriter().string(for: failure.json), to: directory + "/" + failure.fileName)
            saved.append(failure)
        }
        return saved
    }
}

/// What replaying a scenario's saved failures gave.
struct SavedFailureReplay {
    var replayed = 0
    /// Saved failures that still violate their invariant (kept).
    var stillFailing: [SavedFailure] = []
    /// Saved failures that no longer do (deleted).
    var dropped: [SavedFailure] = []

    /// `replayed 2 saved failures: 1 still fail (every-begin-ended); 1 no longer fails, dropped`.
    var summary: String {
        let names = stillFailing.isEmpty ? "" : " (" + stillFailing.map(\.invariant).joined(separator: ", ") + ")"
        let gone = dropped.isEmpty ? "" : "; \(dropped.count) no longer \(dropped.count == 1 ? "fails" : "fail"), dropped"
        return "replayed \(replayed) saved \(replayed == 1 ? "failure" : "failures"): \(stillFailing.count) still "
            + "\(stillFailing.count == 1 ? "fails" : "fail")\(names)\(gone)"
    }
}
