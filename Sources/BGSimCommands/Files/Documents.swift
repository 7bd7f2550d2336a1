/// The repository's documents that command output points to, by path from BackgroundTaskKit's
/// package root (a user's own bgsim runs in their package, so output names the repository too:
/// ``named(_:)``).
///
/// ```swift
/// io.out("each id explained in \(Documents.named(Documents.iOSRules))")
/// ```
///
/// Contract: each path names a file in the repository (a test checks it exists), never one outside.
enum Documents {
    /// Every iOS rule id: what it says, its evidence, its sources and what the simulator does with it.
    static let iOSRules = "Sources/BackgroundTaskSimulator/BackgroundTaskSimulator.docc/IOSBackgroundRules.md"
    /// The bug patterns the planted-bug scenarios reproduce, with their scenarios.
    static let bugPatterns = "Sources/BackgroundTaskSimulator/BackgroundTaskSimulator.docc/BugPatterns.md"

    /// `path` as output prints it: "BackgroundTaskKit's <path>".
    static func named(_ path: String) -> String { "BackgroundTaskKit's \(path)" }
}
