/// The repository's documents that command output points to, by path from the package root.
///
/// ```swift
/// io.out("each id explained in \(Documents.iOSRules)")
/// ```
///
/// Contract: each path names a file in the repository (a test checks it exists), never one outside.
enum Documents {
    /// Every iOS rule id: what it says, its evidence, its sources and what the simulator does with it.
    static let iOSRules = "Sources/BackgroundTaskSimulator/BackgroundTaskSimulator.docc/IOSBackgroundRules.md"
    /// The bug patterns the planted-bug scenarios reproduce, with their scenarios.
    static let bugPatterns = "Sources/BackgroundTaskSimulator/BackgroundTaskSimulator.docc/BugPatterns.md"
}
