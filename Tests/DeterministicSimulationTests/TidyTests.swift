import Foundation
import Testing

/// TigerBeetle-style tidy test: the simulation sources must not use nondeterministic APIs.
@Suite("Tidy")
struct TidyTests {
    /// The simulation source folders, relative to the package root.
    static let checkedFolders = [
        "Sources/DeterministicSimulation", "Sources/SimulationFormats", "Sources/BackgroundTaskSimulator",
    ]

    /// The package root: this file is `<root>/Tests/DeterministicSimulationTests/TidyTests.swift`.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    @Test("simulation sources use no banned nondeterministic API")
    func sourcesAreTidy() throws {
        var checkedFiles = 0
        for folder in Self.checkedFolders {
            let url = Self.packageRoot.appendingPathComponent(folder)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            let files = try swiftFiles(under: url)
            for file in files {
                let source = try String(contentsOf: file, encoding: .utf8)
                let relative = String(file.path.dropFirst(Self.packageRoot.path.count + 1))
                for violation in try TidyChecker.check(source: source, file: relative) {
                    Issue.record(Comment(rawValue: violation.description))
                }
                checkedFiles += 1
            }
        }
        #expect(checkedFiles > 10, "the engine's sources were not found from \(Self.packageRoot.path)")
    }

    @Test("the checker flags every banned API with file, line and replacement")
    func checkerCatchesBannedAPIs() throws {
        let snippet = """
            let a = Int.random(in: 0...3)
            let b = items.shuffled()
            let c = items.randomElement()
            var d = SystemRandomNumberGenerator()
            let e = Date()
            let f = ContinuousClock()
            try await Task.sleep(for: .seconds(1))
            DispatchQueue.main.async {}
            let g = key.hashValue
            let h: Set<Int> = []
            for k in table.keys { print(k) }
            let i = Double.random(in: 0..<1)
            """
        let violations = try TidyChecker.check(source: snippet, file: "Snippet.swift")
        #expect(violations.map(\.line) == Array(1...12))
        let first = try #require(violations.first)
        #expect(first.description.hasPrefix("Snippet.swift:1: `Int.random`/`.random(in:)` is banned"))
        #expect(first.description.contains("use ChoiceSource.int(in:)"))
        #expect(violations[4].replacement == "VirtualClock.now")
        #expect(violations[7].replacement.hasPrefix("Scheduler queues"))
    }

    @Test("comments are ignored, strings are not, and a reasoned escape is honoured")
    func checkerCommentsAndEscapes() throws {
        let snippet = """
            // Date() in a comment is fine
            let url = "http://example.com" // DispatchQueue in a trailing comment is fine
            /* Task.sleep in a block
               comment spanning lines */ let x = 1
            let message = "call Date() here"
            let pool = DispatchQueue(label: "runner") // tidy: allow the campaign runner's threads
            let bad = DispatchQueue(label: "x") // tidy: allow
            for value in sequence.values.indices { print(value) }
            """
        let violations = try TidyChecker.check(source: snippet, file: "S.swift")
        #expect(violations.map(\.line) == [5, 7])
        #expect(violations.last?.banned == "`// tidy: allow` without a reason")
    }

    @Test("comment stripping keeps string literals with slashes and escaped quotes")
    func stripping() {
        var inBlock = false
        #expect(TidyChecker.stripComments(#"let s = "a // b" // c"#, inBlockComment: &inBlock)
            == #"let s = "a // b" "#)
        #expect(TidyChecker.stripComments(#"let s = "q\"//" + t // c"#, inBlockComment: &inBlock)
            == #"let s = "q\"//" + t "#)
        #expect(TidyChecker.stripComments("a /* b */ c", inBlockComment: &inBlock) == "a  c")
        #expect(!inBlock)
    }

    private func swiftFiles(under folder: URL) throws -> [URL] {
        guard let enumerator = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: nil)
        else { return [] }
        var files: [URL] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            files.append(url)
        }
        return files.sorted { $0.path < $1.path }
    }
}
