import Foundation
import Testing

/// The getting-started tutorial builds `Scenarios/Examples/UploadKit` from `swift package init`.
/// CI builds and tests that package (`.ci/run`, "example package"), so the tutorial's code runs
/// exactly when the article shows the example's files verbatim: this checks that it does.
@Suite("The getting-started tutorial shows the example package's code")
struct GettingStartedTutorialTests {
    static let article = "Sources/BackgroundTaskSimulator/BackgroundTaskSimulator.docc/GettingStarted.md"
    static let example = "Scenarios/Examples/UploadKit/"

    /// The repository's root, from this file's path.
    static var root: URL {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        return root
    }

    @Test("every source file of the finished package appears in the article as a whole Swift block", arguments: [
        "Sources/UploadKit/PhotoUploadQueue.swift",
        "Sources/UploadKitWorkloads/UploadKitWorkloads.swift",
        "Tests/UploadKitTests/PhotoUploadQueueTests.swift",
        "Sources/upload-bgsim/main.swift",
    ])
    func articleShowsFile(_ file: String) throws {
        let source = try String(contentsOf: Self.root.appendingPathComponent(Self.example + file), encoding: .utf8)
        let article = try String(contentsOf: Self.root.appendingPathComponent(Self.article), encoding: .utf8)
        #expect(article.contains("```swift\n" + source + "```"),
                "\(Self.article) must show \(Self.example + file) verbatim; copy the file into its block")
    }

    @Test("the article's first test is the finished test file's, pointed at the planted bug")
    func firstTestIsTheFinishedOnesSibling() throws {
        let article = try String(contentsOf: Self.root.appendingPathComponent(Self.article), encoding: .utf8)
        // Step 5's test: the campaign of the fixed test's first case, over the buggy variant.
        let stepFive = [
            "    let campaign = WorkloadCampaign(workload: UploadKitWorkloads.beginsWhenEmpty, runs: 300)",
            "    await campaign.expectNoViolations()",
        ].joined(separator: "\n")
        #expect(article.contains(stepFive))
        #expect(article.contains("## Next steps"))
    }
}
