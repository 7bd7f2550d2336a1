import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import SimulationFormats

/// The failure database: a folder of ``SavedFailure`` files (`.bgsim/failures/` in the working
/// directory by default), like Hypothesis's example database and the VOPR's seed lists. `fuzz`
/// saves each failure that goes against its scenario's expectation; every later `fuzz` and
/// `check` replays the saved failures of the scenarios it runs before their campaigns. Only
/// `fuzz` maintains the database: it drops the ones that no longer fail; `check` only reads.
///
/// ```swift
/// let database = FailureDatabase(directory: ".bgsim/failures")
/// let replay = try database.replay(scenario, dropsFixed: true)   // fuzz: drops what no longer fails
/// print(replay.summary)                            // "replayed 2 saved failures: 1 still fail"
/// try database.save(result.failures, of: scenario, verdict: verdict, ...)
/// ```
///
/// Contract: files are read in name order (never directory order) and written atomically; a file
/// that is not a saved failure of this format, or names an invariant its scenario does not
/// check, is an error (exit 65) naming it; the folder is created only when something is saved.
/// Safe for processes sharing the folder: a file that vanishes between listing and reading
/// (another `fuzz` dropped it) is skipped, and dropping a file already gone is no error.
struct FailureDatabase {
    /// The folder, as given (relative to the working directory, or absolute).
    let directory: String
    /// Reads a file; `nil` when it cannot be read. A seam for tests, which delete a file between
    /// listing and reading as a concurrent process would.
    var readFile: (String) -> Data? = { FileManager.default.contents(atPath: $0) }

    /// Every saved failure of `scenario` (by name), with its file's path.
    func entries(for scenario: Scenario) throws(CLIError) -> [(path: String, failure: SavedFailure)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var entries: [(path: String, failure: SavedFailure)] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let path = directory + "/" + name
            guard let data = readFile(path) else {
                if !FileManager.default.fileExists(atPath: path) { continue }  // dropped by another process since listed
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

    /// Replays every saved failure of `scenario` (its shrunk choices, one run each) and keeps
    /// those that still violate their invariant; with `dropsFixed` (`fuzz`, never `check`) it
    /// deletes the others.
    ///
    /// - Throws: ``CLIError`` 65 naming the file and `invariant` when a saved failure names an
    ///   invariant the scenario does not check (so its replay could never show it again).
    func replay(_ scenario: Scenario, dropsFixed: Bool) throws(CLIError) -> SavedFailureReplay {
        var replay = SavedFailureReplay(dropsFixed: dropsFixed)
        let checked = scenario.invariants.map(\.id) + Invariant.processLevel.map(\.id)
        for (path, saved) in try entries(for: scenario) {
            guard checked.contains(saved.invariant) else {
                throw CLIError(.dataError, "\(path): $.invariant: \"\(saved.invariant)\" is not an invariant scenario "
                    + "\(scenario.name) checks (\(scenario.invariants.map(\.id).joined(separator: ", "))); delete the "
                    + "file or run with --no-failure-db")
            }
            var spec = scenario.runSpec
            spec.exploration = saved.strategy  // the choices mean a run of the strategy that saved them
            let outcome = SimulationRunner.run(spec, choices: ChoiceSource(replaying: saved.choices), keepTrace: false)
            replay.replayed += 1
            if outcome.violations.contains(where: { $0.invariant == saved.invariant }) {
                replay.stillFailing.append(saved)
            } else {
                if dropsFixed { try? FileManager.default.removeItem(atPath: path) }  // gone already: fine
                replay.noLongerFailing.append(saved)
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
    /// Whether the saved failures that no longer fail were deleted (`fuzz`) or kept (`check`).
    var dropsFixed = false
    var replayed = 0
    /// Saved failures that still violate their invariant (kept).
    var stillFailing: [SavedFailure] = []
    /// Saved failures that no longer do (deleted when ``dropsFixed``).
    var noLongerFailing: [SavedFailure] = []

    /// `replayed 2 saved failures: 1 still fail (every-begin-ended); 1 no longer fails, dropped`
    /// (`check`: `…; 1 no longer fails (fuzz drops it)`).
    var summary: String {
        let names = stillFailing.isEmpty ? "" : " (" + stillFailing.map(\.invariant).joined(separator: ", ") + ")"
        let fixed = noLongerFailing.count
        let gone = fixed == 0 ? "" : "; \(fixed) no longer \(fixed == 1 ? "fails" : "fail")"
            + (dropsFixed ? ", dropped" : " (fuzz drops \(fixed == 1 ? "it" : "them"))")
        return "replayed \(replayed) saved \(replayed == 1 ? "failure" : "failures"): \(stillFailing.count) still "
            + "\(stillFailing.count == 1 ? "fails" : "fail")\(names)\(gone)"
    }
}
