import Foundation
import Testing

/// The code between `// README-BEGIN <name>` and `// README-END` in a test file, and whether
/// README.md shows it verbatim as a Swift block.
///
/// ```swift
/// try ReadmeExample.expectShown("threads", from: #filePath)
/// ```
enum ReadmeExample {
    static func expectShown(_ name: String, from file: String) throws {
        let source = try String(contentsOfFile: file, encoding: .utf8)
        let begin = try #require(source.range(of: "// README-BEGIN \(name)\n"))
        let end = try #require(source.range(of: "// README-END", range: begin.upperBound..<source.endIndex))
        let example = String(source[begin.upperBound..<end.lowerBound])
        var root = URL(fileURLWithPath: file)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```swift\n" + example + "```"),
                "README.md must show the example verbatim; copy it from \(file)")
    }
}
