import Foundation
import Testing

/// Unsafe performance code stays where it is documented and tested (STYLE.md habit 11): a
/// checker, workload or other domain file that picks up `@exclusivity(unchecked)`,
/// `unowned(unsafe)`, `Unmanaged`, underscored standard library API, `unsafeBitCast`, `dlsym`,
/// `sigaction`, `nonisolated(unsafe)` or a raw pointer fails this suite.
@Suite("Unsafe code containment")
struct UnsafeContainmentTests {
    /// Every Swift file under `Sources/`, with its path from the package root.
    static func sourceFiles() throws -> [(path: String, text: String)] {
        let root = TidyTests.packageRoot
        let sources = root.appendingPathComponent("Sources")
        guard let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        else { return [] }
        var files: [(path: String, text: String)] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let path = String(url.path.dropFirst(root.path.count + 1))
            files.append((path, try String(contentsOf: url, encoding: .utf8)))
        }
        return files.sorted { $0.path < $1.path }
    }

    @Test("unsafe idioms appear only in their allow-listed files, at most as often as listed")
    func sourcesContainUnsafeCode() throws {
        let files = try Self.sourceFiles()
        #expect(files.count > 50, "the sources were not found from \(TidyTests.packageRoot.path)")
        for file in files {
            for violation in try UnsafeContainmentChecker.check(source: file.text, file: file.path) {
                Issue.record(Comment(rawValue: violation.description))
            }
        }
    }

    @Test("every allow-list entry names a file that still uses its idiom as often as listed")
    func allowListIsCurrent() throws {
        let files = Dictionary(uniqueKeysWithValues: try Self.sourceFiles().map { ($0.path, $0.text) })
        for (index, idiom) in UnsafeContainmentChecker.idioms.enumerated() {
            for (path, count) in idiom.allowed.sorted(by: { $0.key < $1.key }) {
                let text = try #require(files[path], "\(path) is allow-listed for \(idiom.name) but does not exist")
                let used = try UnsafeContainmentChecker.uses(in: text)[index].count
                #expect(used == count, "\(path) uses \(idiom.name) \(used)x but is allow-listed for \(count)x")
            }
        }
    }

    @Test("the checker flags each idiom outside its files, with lines, and ignores comments")
    func checkerFlagsEachIdiom() throws {
        let snippet = """
            final class Checker {
                @exclusivity(unchecked) private var open: [Int] = []
                private unowned(unsafe) let device: SimulatedDevice
                let monitor = Unmanaged.passUnretained(object)
                func call() { monitor._withUnsafeGuaranteedRef { $0.run() } }
                // @exclusivity(unchecked) in a comment is fine
                /* so is unowned(unsafe) in a block comment */
                let hook = unsafeBitCast(dlsym(nil, "f"), to: Hook.self)
                func install() { sigaction(SIGSEGV, &action, nil) }
                nonisolated(unsafe) static var last: Int = 0
                let slots = UnsafeMutablePointer<Int>.allocate(capacity: 4)
            }
            """
        let path = "Sources/BackgroundTaskSimulator/Invariants/Checker.swift"
        let violations = try UnsafeContainmentChecker.check(source: snippet, file: path)
        #expect(violations.map(\.lines) == [[2], [3], [4], [5], [8], [8], [9], [10], [11]])
        #expect(violations.map(\.allowedCount) == Array(repeating: 0, count: 9))
        let first = try #require(violations.first)
        #expect(first.description.hasPrefix("\(path):2: `@exclusivity(unchecked)` is not allowed in this file"))
    }

    @Test("an allow-listed file may use its idiom up to its count, and not once more")
    func checkerCountsAllowedUses() throws {
        let path = "Sources/BackgroundTaskSimulator/App/SimulatedDevice.swift"
        let once = "@exclusivity(unchecked) private var core: Core"
        #expect(try UnsafeContainmentChecker.check(source: once, file: path).isEmpty)
        let twice = once + "\n@exclusivity(unchecked) var sinks: [Sink] = []"
        let violations = try UnsafeContainmentChecker.check(source: twice, file: path)
        #expect(violations.map(\.lines) == [[1, 2]])
        #expect(violations.first?.description.contains("is allowed at most 1x here") == true)
    }
}
