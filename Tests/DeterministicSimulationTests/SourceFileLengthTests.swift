import Foundation
import Testing

/// Issue 34's rule for rooms you can read: no source file over 400 lines. A file that grows past
/// it holds more than one concept; split it by concept (the Architecture article's rooms), not
/// at line 400.
@Suite("Source file length")
struct SourceFileLengthTests {
    static let limit = 400

    /// Every Swift, C and header file under `Sources/`, relative to the package root.
    static func sourceFiles() -> [String] {
        let sources = TidyTests.packageRoot.appendingPathComponent("Sources").path
        let all = FileManager.default.enumerator(atPath: sources)?.allObjects as? [String] ?? []
        return all.filter { $0.hasSuffix(".swift") || $0.hasSuffix(".c") || $0.hasSuffix(".h") }.sorted()
            .map { "Sources/" + $0 }
    }

    /// Lines as `wc -l` counts them, and a last line without its newline.
    static func lineCount(of text: String) -> Int {
        text.utf8.count { $0 == UInt8(ascii: "\n") } + (text.isEmpty || text.hasSuffix("\n") ? 0 : 1)
    }

    /// What the rule says about each file over the limit.
    static func offences(_ files: [(path: String, text: String)]) -> [String] {
        files.compactMap { file in
            let lines = lineCount(of: file.text)
            return lines > limit ? "\(file.path) has \(lines) lines (at most \(limit)): split it by concept" : nil
        }
    }

    @Test("no source file under Sources/ is over 400 lines")
    func noSourceFileOverTheLimit() throws {
        let files = try Self.sourceFiles().map { path in
            (path: path, text: try String(contentsOf: TidyTests.packageRoot.appendingPathComponent(path), encoding: .utf8))
        }
        #expect(files.count > 100, "the sources were not found under \(TidyTests.packageRoot.path)")
        for offence in Self.offences(files) { Issue.record(Comment(rawValue: offence)) }
    }

    @Test("a file of 401 lines is named with its count; 400 lines, or 401 without the last newline, pass")
    func ruleFlagsOnlyLongFiles() {
        let line = "let x = 1\n"
        let offences = Self.offences([
            (path: "Long.swift", text: String(repeating: line, count: 401)),
            (path: "AtLimit.c", text: String(repeating: line, count: 400)),
            (path: "NoLastNewline.h", text: String(repeating: line, count: 399) + "let y = 2"),
        ])
        #expect(offences == ["Long.swift has 401 lines (at most 400): split it by concept"])
        #expect(Self.lineCount(of: "") == 0)
        #expect(Self.lineCount(of: "a") == 1)
    }
}
