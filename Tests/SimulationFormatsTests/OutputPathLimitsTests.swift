import Foundation
import Testing
@testable import SimulationFormats

/// Issue 32, item 5: names too long for the file system are found by the check before any work,
/// a failure database folder is checked without being created, and paths compare resolved.
@Suite("Output path limits")
struct OutputPathLimitsTests {
    @Test("checkWritable refuses a file name over 255 bytes, which it used to accept (its temporary name is short)")
    func nameOverLimit() throws {
        let scratch = try ScratchDirectory("long")
        let path = scratch.path + "/" + String(repeating: "x", count: 251) + ".json"
        #expect(throws: OutputError(path: path, reason: .nameTooLong(bytes: 256, limit: 255, whole: false),
                                    systemMessage: String(cString: strerror(ENAMETOOLONG)))) {
            try AtomicFile.checkWritable(path)
        }
        #expect(scratch.entries.isEmpty)
        let fits = scratch.path + "/" + String(repeating: "x", count: 250) + ".json"
        try AtomicFile.write("{}", to: fits)
        #expect(scratch.entries.count == 1)
    }

    @Test("a name of 249 bytes in a four-byte script is written: the temporary file's name is cut by bytes")
    func multibyteName() throws {
        let scratch = try ScratchDirectory("emoji")
        let name = String(repeating: "🛰", count: 61) + ".json"   // 244 + 5 bytes, 66 characters
        try AtomicFile.checkWritable(scratch.path + "/" + name)
        try AtomicFile.write("{}", to: scratch.path + "/" + name)
        #expect(scratch.entries == [name])
        #expect(AtomicFile.prefix(ofBytes: 6, "aé🛰") == "aé")
    }

    @Test("checkFolderWritable accepts a folder to be created, creates nothing, and refuses a file or a file's child")
    func folderCheck() throws {
        let scratch = try ScratchDirectory("folder")
        try AtomicFile.checkFolderWritable(scratch.path + "/a/b/c")
        try AtomicFile.checkFolderWritable(scratch.path + "/")
        #expect(scratch.entries.isEmpty)
        let file = scratch.path + "/file"
        try AtomicFile.write("x", to: file)
        #expect(throws: OutputError(path: file, reason: .notAFolder, systemMessage: String(cString: strerror(ENOTDIR)))) {
            try AtomicFile.checkFolderWritable(file)
        }
        #expect(throws: OutputError(path: file + "/db", reason: .parentNotDirectory(directory: file),
                                    systemMessage: String(cString: strerror(ENOTDIR)))) {
            try AtomicFile.checkFolderWritable(file + "/db")
        }
    }

    @Test("ResolvedPath gives one spelling for ./, .., repeated slashes and a link to a folder")
    func resolved() throws {
        let scratch = try ScratchDirectory("resolved")
        let real = ResolvedPath.file(scratch.path)   // /tmp may itself be a link (macOS)
        try FileManager.default.createDirectory(atPath: scratch.path + "/dir", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/link", withDestinationPath: scratch.path + "/dir")
        try AtomicFile.write("x", to: scratch.path + "/dir/file.json")
        let spellings = ["/dir/file.json", "/./dir//file.json", "/dir/../dir/file.json", "/link/file.json"]
        for spelling in spellings {
            #expect(ResolvedPath.file(scratch.path + spelling) == real + "/dir/file.json", "\(spelling)")
            #expect(ResolvedPath.entry(scratch.path + spelling) == real + "/dir/file.json", "\(spelling)")
        }
        #expect(ResolvedPath.entry(scratch.path + "/dir/new/../later.json") == real + "/dir/later.json")
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/dir/alias.json",
                                                   withDestinationPath: scratch.path + "/dir/file.json")
        #expect(ResolvedPath.entry(scratch.path + "/dir/alias.json") == real + "/dir/alias.json")
        #expect(ResolvedPath.file(scratch.path + "/dir/alias.json") == real + "/dir/file.json")
        #expect(ResolvedPath.folder(ofEntry: scratch.path + "/link/x.json") == real + "/dir")
    }
}
