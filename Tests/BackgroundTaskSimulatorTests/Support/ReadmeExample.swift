import Foundation
import Testing

/// The code between `// README-BEGIN <name>` and `// README-END` in a test file, and whether
/// a document (README.md, or a DocC article) shows it verbatim as a Swift block.
///
/// ```swift
/// try ReadmeExample.expectShown("threads", from: #filePath,
///                               in: "Sources/BackgroundTaskSimulator/BackgroundTaskSimulator.docc/TestingYourCode.md")
/// ```
enum ReadmeExample {
    /// The article that has the whole of "Test your own code".
    static let testingArticle = "Sources/BackgroundTaskSimulator/BackgroundTaskSimulator.docc/TestingYourCode.md"

    static func expectShown(_ name: String, from file: String, in document: String = "README.md") throws {
        let source = try String(contentsOfFile: file, encoding: .utf8)
        let begin = try #require(source.range(of: "// README-BEGIN \(name)\n"))
        let end = try #require(source.range(of: "// README-END", range: begin.upperBound..<source.endIndex))
        let example = String(source[begin.upperBound..<end.lowerBound])
        var root = URL(fileURLWithPath: file)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
        #expect(text.contains("```swift\n" + example + "```"),
                "\(document) must show the example verbatim; copy it from \(file)")
    }
}
