import Synchronization

/// Where a scenario campaign keeps the failures it found, to replay them first next time: the
/// simulator's example database, as Hypothesis keeps one. ``DirectoryFailureStore`` is
/// `bgsim`'s `.bgsim/failures/`; ``InMemoryFailureStore`` serves tests and the Swift API.
///
/// ```swift
/// let store = InMemoryFailureStore()
/// let replay = try store.replay(scenario, dropsFixed: true)   // "replayed 1 saved failure: 1 still fails"
/// let added = try store.save(result, of: scenario, keeping: replay, toolVersion: "0.1.0")
/// ```
///
/// Contract: ``entries(of:)`` lists a scenario's saved failures in a fixed order (never a
/// directory's or a hash table's); ``remove(_:)`` of an entry already gone is no error; a
/// store shared by several processes or threads tolerates entries vanishing between listing and
/// reading.
public protocol FailureStore: Sendable {
    /// Every saved failure of the scenario named `scenarioName`, in a fixed order.
    func entries(of scenarioName: String) throws(FailureStoreError) -> [FailureStoreEntry]
    /// Saves `failure` (one per scenario and invariant: a later save of the same replaces it).
    func save(_ failure: SavedFailure) throws(FailureStoreError)
    /// Removes a saved failure that no longer fails.
    func remove(_ entry: FailureStoreEntry)
}

/// A saved failure and where its store keeps it (a file's path, a key).
public struct FailureStoreEntry: Sendable, Equatable {
    public var location: String
    public var failure: SavedFailure

    public init(location: String, failure: SavedFailure) {
        self.location = location
        self.failure = failure
    }
}

/// Why a store could not be read or written: what, where, and (``description``) a fix in the
/// store's own terms. A front end may word the fix its way by ``kind`` (the command line names
/// its options).
public struct FailureStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// An entry exists but cannot be read.
        case unreadable
        /// An entry is not a saved failure (not JSON of that shape).
        case notASavedFailure
        /// A field of a saved failure is missing or wrong (another format version, a bad token).
        case badField
        /// A saved failure names an invariant its scenario does not check.
        case uncheckedInvariant
        /// The store's folder cannot be made.
        case cannotCreate
        /// An entry cannot be written (``message`` says why, fix included).
        case cannotWrite
    }

    public var kind: Kind
    /// What and where: `.bgsim/failures/x.json: $.seed is missing or not a string`.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String {
        switch kind {
        case .unreadable: "\(message); fix its permissions or delete it"
        case .notASavedFailure, .uncheckedInvariant: "\(message); delete it"
        case .badField: "\(message); delete it (the store rebuilds itself)"
        case .cannotCreate: "\(message); give the store a writable folder"
        case .cannotWrite: message
        }
    }
}

/// A store in memory, for a test or one process's campaigns: nothing survives the process.
///
/// ```swift
/// let store = InMemoryFailureStore()
/// var campaign = WorkloadCampaign(workload: info, runs: 300)
/// campaign.failureStore = store      // a second run() replays what the first found, first
/// ```
public final class InMemoryFailureStore: FailureStore {
    private let saved: Mutex<[SavedFailure]>

    public init(_ failures: [SavedFailure] = []) { saved = Mutex(failures) }

    /// Everything saved, in the order saved.
    public var failures: [SavedFailure] { saved.withLock { $0 } }

    public func entries(of scenarioName: String) -> [FailureStoreEntry] {
        failures.filter { $0.scenarioName == scenarioName }.map { FailureStoreEntry(location: $0.fileName, failure: $0) }
    }

    public func save(_ failure: SavedFailure) {
        saved.withLock { list in
            list.removeAll { $0.fileName == failure.fileName }
            list.append(failure)
        }
    }

    public func remove(_ entry: FailureStoreEntry) {
        saved.withLock { list in list.removeAll { $0.fileName == entry.location } }
    }
}
