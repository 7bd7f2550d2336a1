package import Foundation
import DeterministicSimulation
import SimulationFormats

/// A ``FailureStore`` in a folder: one ``SavedFailure`` JSON file per scenario and invariant
/// (`bgsim`'s failure database, `.bgsim/failures/` in the working directory by default), like
/// Hypothesis's example database and the VOPR's seed lists. The format is version 1, byte for
/// byte what `bgsim fuzz` has always written (README.md, "The failure database").
///
/// ```swift
/// let store = DirectoryFailureStore(directory: ".bgsim/failures")
/// let replay = try store.replay(scenario, dropsFixed: true)   // fuzz: drops what no longer fails
/// print(replay.summary())                                      // "replayed 2 saved failures: 1 still fail"
/// ```
///
/// Contract: files are read in name order (never directory order) and written atomically
/// (``writeFile``); a file that is not a saved failure of this format is an error naming it;
/// the folder is created only when something is saved. Safe for processes sharing the folder: a
/// file that vanishes between listing and reading (another `fuzz` dropped it) is skipped, and
/// removing a file already gone is no error.
public struct DirectoryFailureStore: FailureStore {
    /// The folder, as given (relative to the working directory, or absolute).
    public let directory: String
    /// Reads a file; `nil` when it cannot be read. A seam for tests, which delete a file between
    /// listing and reading as a concurrent process would.
    package var readFile: @Sendable (String) -> Data? = { FileManager.default.contents(atPath: $0) }
    /// Writes a file atomically (default: ``AtomicFile``); a front end may guard it against its
    /// own signals.
    public var writeFile: @Sendable (_ text: String, _ path: String) throws(FailureStoreError) -> Void = {
        (text: String, path: String) throws(FailureStoreError) in
        do throws(OutputError) {
            try Interrupt.writeAtomically(text, to: path)
        } catch {
            throw FailureStoreError(.cannotWrite, error.description)
        }
    }

    public init(directory: String) {
        self.directory = directory
    }

    public func entries(of scenarioName: String) throws(FailureStoreError) -> [FailureStoreEntry] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var entries: [FailureStoreEntry] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let path = directory + "/" + name
            guard let data = readFile(path) else {
                if !FileManager.default.fileExists(atPath: path) { continue }  // dropped by another process since listed
                throw FailureStoreError(.unreadable, "\(path): cannot read this saved failure")
            }
            let value: JSONValue
            do {
                value = try JSONParser().parse([UInt8](data))
            } catch {
                throw FailureStoreError(.notASavedFailure, "\(path): not a saved failure (\(error.description))")
            }
            let failure = try SavedFailure(json: value, file: path)
            if failure.scenarioName == scenarioName { entries.append(FailureStoreEntry(location: path, failure: failure)) }
        }
        return entries
    }

    public func save(_ failure: SavedFailure) throws(FailureStoreError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw FailureStoreError(.cannotCreate, "\(directory): cannot create the failure database folder "
                + "(\(error.localizedDescription))")
        }
        try writeFile(JSONWriter().string(for: failure.json), directory + "/" + failure.fileName)
    }

    public func remove(_ entry: FailureStoreEntry) {
        try? FileManager.default.removeItem(atPath: entry.location)  // gone already: fine
    }
}
