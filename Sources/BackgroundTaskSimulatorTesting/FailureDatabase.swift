public import BackgroundTaskSimulator

/// Where a front-door campaign (`campaign.expectNoViolations()`, `XCTAssertNoViolations(campaign)`)
/// keeps its failures: by default the
/// directory `bgsim` uses, as Hypothesis keeps `.hypothesis/`, so a failure found once is
/// replayed first by every later run of the test until it is fixed.
///
/// ```swift
/// await campaign.expectNoViolations()                                     // .bgsim/failures
/// await campaign.expectNoViolations(failureDatabase: .directory("/tmp/f")) // elsewhere
/// await campaign.expectNoViolations(failureDatabase: .off)                 // none
/// ```
///
/// Contract: `.standard` is the campaign's own `failureStore` when it has one, else a
/// `DirectoryFailureStore` at `.bgsim/failures`
/// under the current directory (SwiftPM runs tests from the package root; the folder is made on
/// the first failure). Saved failures are replayed before the runs; new ones are saved after.
public enum FailureDatabase: Sendable {
    /// The campaign's store, else `.bgsim/failures` under the current directory.
    case standard
    /// A `DirectoryFailureStore` at this folder.
    case directory(String)
    /// Any store (an `InMemoryFailureStore` keeps nothing past the process).
    case store(any FailureStore)
    /// No store: nothing replayed first, nothing saved.
    case off

    /// The folder of `.standard`, relative to the current directory.
    public static let standardDirectory = ".bgsim/failures"

    /// The store this database names for `campaign`.
    func store(for campaign: WorkloadCampaign) -> (any FailureStore)? {
        if case .standard = self, let own = campaign.failureStore { return own }
        return store
    }

    /// The store this database names (`.standard`: the folder `bgsim` uses).
    var store: (any FailureStore)? {
        switch self {
        case .standard: DirectoryFailureStore(directory: Self.standardDirectory)
        case .directory(let path): DirectoryFailureStore(directory: path)
        case .store(let store): store
        case .off: nil
        }
    }
}
