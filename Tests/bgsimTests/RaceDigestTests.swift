import Testing

/// Data-race runs are as deterministic as any (issue 36): the planted races and their twins give
/// the same campaign digest with one job or two and in a new process, with their access and
/// race events in the trace; so do runs whose threads wait for each other's real `NSLock`s.
@Suite struct RaceDigestTests {
    static let scenarios = [
        "receipt-upload-unguarded-did-complete-ios17.json", "receipt-upload-correct-ios17.json",
        "video-upload-unguarded-upload-id-ios17.json", "video-upload-correct-ios17.json",
        "thumbnail-prefetch-completion-handler-set-after-start-ios17.json", "thumbnail-prefetch-correct-ios17.json",
        // Real NSLocks between simulated threads (PlainLocks): contended waits and a deadlock.
        "metrics-flush-correct-ios17.json", "metrics-flush-lock-order-inversion-ios17.json",
    ]

    @Test("a race campaign gives the same digest with --jobs 1 and --jobs 2, and in a new process",
          arguments: scenarios)
    func sameDigestEverywhere(file: String) throws {
        try AsyncDigestTests.checkSameDigestEverywhere(file: file)
    }
}
