import Foundation
import Testing
@testable import SimulationFormats

/// A fresh directory under /tmp for one test (from `mkdtemp`), removed when released.
final class ScratchDirectory {
    let path: String

    init(_ name: String) throws {
        var template = Array("/tmp/io-tests-\(name)-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else {
            throw CocoaError(.fileWriteUnknown)
        }
        path = String(cString: created)
    }

    deinit {
        chmod(path, 0o755)
        try? FileManager.default.removeItem(atPath: path)
    }

    func contents(_ name: String) -> String? {
        FileManager.default.contents(atPath: path + "/" + name).map { String(decoding: $0, as: UTF8.self) }
    }

    var entries: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}

@Suite("AtomicFile")
struct AtomicFileTests {
    static let isRoot = geteuid() == 0

    @Test("writes a new file with exactly the bytes, leaving no temporary file")
    func writesNewFile() throws {
        let scratch = try ScratchDirectory("new")
        try AtomicFile.write("{\"ok\": true}\n", to: scratch.path + "/report.json")
        #expect(scratch.contents("report.json") == "{\"ok\": true}\n")
        try AtomicFile.write([UInt8](), to: scratch.path + "/empty.json")
        #expect(scratch.contents("empty.json") == "")
        #expect(scratch.entries == ["empty.json", "report.json"])
    }

    @Test("replaces an existing file and keeps its permission bits")
    func replaces() throws {
        let scratch = try ScratchDirectory("replace")
        let path = scratch.path + "/report.json"
        try AtomicFile.write("old old old old", to: path)
        chmod(path, 0o600)
        try AtomicFile.write(Array("new".utf8), to: path)
        #expect(scratch.contents("report.json") == "new")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(scratch.entries == ["report.json"])
    }

    @Test("a failure at any step leaves the old file untouched and removes the temporary file",
          arguments: [AtomicFile.Step.create, .write, .sync, .rename])
    func failureKeepsOldContent(step: AtomicFile.Step) throws {
        let scratch = try ScratchDirectory("fail")
        let path = scratch.path + "/report.json"
        try AtomicFile.write("old content", to: path)
        #expect(throws: OutputError.self) {
            try AtomicFile.write(Array("new content".utf8), to: path, failing: step)
        }
        #expect(scratch.contents("report.json") == "old content")
        #expect(scratch.entries == ["report.json"])
    }

    @Test("a missing directory is reported with the mkdir fix, before and during a write")
    func missingDirectory() throws {
        let scratch = try ScratchDirectory("missing")
        let path = scratch.path + "/nope/report.json"
        let expected = OutputError(path: path, reason: .directoryMissing(directory: scratch.path + "/nope"),
                                   systemMessage: "No such file or directory")
        #expect(throws: expected) { try AtomicFile.checkWritable(path) }
        #expect(throws: expected) { try AtomicFile.write("x", to: path) }
        #expect(expected.description == "\(path): cannot write: the directory '\(scratch.path)/nope' does not exist (No such file or directory). Create it (mkdir -p '\(scratch.path)/nope') or choose another path.")
    }

    @Test("a directory as the target is an error and the directory is left alone")
    func directoryTarget() throws {
        let scratch = try ScratchDirectory("dir")
        let path = scratch.path + "/Reports"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let expected = OutputError(path: path, reason: .isDirectory, systemMessage: nil)
        #expect(throws: expected) { try AtomicFile.checkWritable(path) }
        #expect(throws: expected) { try AtomicFile.write("x", to: path) }
        #expect(throws: OutputError(path: path + "/", reason: .isDirectory, systemMessage: nil)) {
            try AtomicFile.write("x", to: path + "/")
        }
        #expect(scratch.entries == ["Reports"])
        #expect(expected.description == "\(path): cannot write: it is a directory. Give a file name inside it, such as '\(path)/report.json'.")
    }

    @Test("a parent that is a file, a special file, or an empty path is an error")
    func otherBadTargets() throws {
        let scratch = try ScratchDirectory("bad")
        try AtomicFile.write("x", to: scratch.path + "/file")
        let underFile = scratch.path + "/file/report.json"
        let error = #expect(throws: OutputError.self) { try AtomicFile.checkWritable(underFile) }
        #expect(error?.reason == .parentNotDirectory(directory: scratch.path + "/file"))
        #expect(throws: OutputError(path: "/dev/null", reason: .notRegularFile, systemMessage: nil)) {
            try AtomicFile.write("x", to: "/dev/null")
        }
        #expect(throws: OutputError(path: "", reason: .emptyPath, systemMessage: nil)) {
            try AtomicFile.checkWritable("")
        }
    }

    @Test("an unwritable directory is a permission error (chmod 555)", .enabled(if: !AtomicFileTests.isRoot, "root ignores permission bits"))
    func unwritableDirectory() throws {
        let scratch = try ScratchDirectory("readonly")
        try AtomicFile.write("old", to: scratch.path + "/report.json")
        chmod(scratch.path, 0o555)
        let error = #expect(throws: OutputError.self) { try AtomicFile.write("new", to: scratch.path + "/report.json") }
        #expect(error?.reason == .permissionDenied(directory: scratch.path))
        #expect(throws: OutputError.self) { try AtomicFile.checkWritable(scratch.path + "/other.json") }
        chmod(scratch.path, 0o755)
        #expect(scratch.contents("report.json") == "old")
        #expect(scratch.entries == ["report.json"])
    }

    @Test("a directory even root cannot create files in is a permission error (/sys)",
          .enabled(if: FileManager.default.fileExists(atPath: "/sys/kernel")))
    func unwritableSystemDirectory() {
        let error = #expect(throws: OutputError.self) { try AtomicFile.checkWritable("/sys/kernel/report.json") }
        #expect(error?.reason == .permissionDenied(directory: "/sys/kernel"))
        #expect(error?.description == "/sys/kernel/report.json: cannot write: no permission to create files in '/sys/kernel' (Permission denied). Choose a writable location or change the directory's permissions.")
    }

    @Test("checkWritable neither creates nor truncates the target")
    func checkWritableTouchesNothing() throws {
        let scratch = try ScratchDirectory("check")
        try AtomicFile.checkWritable(scratch.path + "/new.json")
        #expect(scratch.entries.isEmpty)
        try AtomicFile.write("keep me", to: scratch.path + "/old.json")
        try AtomicFile.checkWritable(scratch.path + "/old.json")
        #expect(scratch.contents("old.json") == "keep me")
        #expect(scratch.entries == ["old.json"])
    }

    @Test("concurrent writers to one path leave one complete payload and no temporary files")
    func concurrentWriters() async throws {
        let scratch = try ScratchDirectory("concurrent")
        let path = scratch.path + "/report.json"
        let payloads = (0..<8).map { writer in String(repeating: "\(writer)", count: 10_000) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for payload in payloads {
                group.addTask {
                    for _ in 0..<10 { try AtomicFile.write(payload, to: path) }
                }
            }
            try await group.waitForAll()
        }
        let final = try #require(scratch.contents("report.json"))
        #expect(payloads.contains(final))
        #expect(scratch.entries == ["report.json"])
    }

    @Test("the directory of a path is '.', '/', or the part before the last slash")
    func directoryOfPath() {
        #expect(AtomicFile.directory(of: "report.json") == ".")
        #expect(AtomicFile.directory(of: "/report.json") == "/")
        #expect(AtomicFile.directory(of: "Reports/x/report.json") == "Reports/x")
    }
}
