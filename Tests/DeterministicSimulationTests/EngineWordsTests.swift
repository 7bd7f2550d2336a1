import Foundation
import Testing

/// The engine prints no command line: its string literals name no front end (`bgsim`) and no
/// option (`--run-timeout`). A front end gives its words as values (``CrashWording``, banners,
/// tool names), so a user's XCTest never prints bgsim's interface (issue 34).
@Suite("Engine words")
struct EngineWordsTests {
    /// Files another change owns, whose literals still name an option, with the reason. Empty
    /// it when they move.
    static let pending: [String: String] = [:]

    /// Every string literal's text on the code lines of `source` (comment lines skipped), with its line.
    static func literals(in source: String) -> [(line: Int, text: String)] {
        var found: [(Int, String)] = []
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = line.trimmingCharacters(in: .whitespaces)
            if code.hasPrefix("//") { continue }
            var inside = false
            var escaped = false
            var text = ""
            for character in code {
                if inside {
                    if escaped { escaped = false; text.append(character); continue }
                    if character == "\\" { escaped = true; text.append(character); continue }
                    if character == "\"" { found.append((index + 1, text)); text = ""; inside = false; continue }
                    text.append(character)
                } else if character == "\"" {
                    inside = true
                }
            }
        }
        return found
    }

    /// Whether a literal's text names bgsim or a command-line option (case-sensitive, as `grep`: the
    /// `BGSIM_…` environment variables are the process's settings, not its command line).
    static func namesFrontEnd(_ text: String) -> Bool {
        text.contains("bgsim") || text.range(of: "--[a-z]", options: .regularExpression) != nil
    }

    @Test("no string literal in the engine's sources (and its runtime room's) names bgsim or a --option")
    func engineNamesNoFrontEnd() throws {
        let root = TidyTests.packageRoot.resolvingSymlinksInPath()
        var checked = 0
        let files = ["Sources/DeterministicSimulation", "Sources/SimulationRuntime"].flatMap { path in
            let folder = root.appendingPathComponent(path).resolvingSymlinksInPath()
            return FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path } ?? []
        }
        for file in files {
            let relative = String(file.path.dropFirst(root.path.count + 1))
            if Self.pending[relative] != nil { continue }
            let source = try String(contentsOf: file, encoding: .utf8)
            for (line, text) in Self.literals(in: source) where Self.namesFrontEnd(text) {
                let where_ = "\(relative):\(line)"
                Issue.record(Comment(rawValue: where_ + ": \"\(text)\" names the front end; take the words from the "
                    + "caller (CrashWording, a banner, a tool name) instead"))
            }
            checked += 1
        }
        #expect(checked > 100, "the engine's sources were not found under \(root.path)/Sources")
    }

    @Test("the check finds a front end's name and option in a literal, not in a comment")
    func checkerFlagsLiterals() {
        let source = """
            /// bgsim replay --seed: a doc comment may name them
            let a = "bgsim: HANG"
            let b = "raise \\(x) --run-timeout"
            let c = "a run made no progress"
            """
        let flagged = Self.literals(in: source).filter { Self.namesFrontEnd($0.text) }.map(\.line)
        #expect(flagged == [2, 3])
    }
}
