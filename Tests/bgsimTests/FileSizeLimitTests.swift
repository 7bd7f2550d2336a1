import BGSimCommands
import Foundation
import Testing

/// Issue 32, item 5: under a file size limit (`ulimit -f`, RLIMIT_FSIZE) the kernel would end
/// bgsim with SIGXFSZ mid-write, silently, leaving its temporary file. bgsim ignores SIGXFSZ at
/// start-up, so the write fails with EFBIG: one clear line, exit 73, no temporary file left.
@Suite struct FileSizeLimitTests {
    /// Runs the built bgsim under `ulimit -f <blocks>` (set by the shell in the child, then `exec`).
    static func spawnLimited(blocks: Int, _ arguments: [String]) throws -> (code: Int32, status: Process.TerminationReason,
                                                                        stdout: String, stderr: String) {
        try #require(FileManager.default.isExecutableFile(atPath: ReplayInNewProcessTests.executable.path),
                     "build bgsim first: swift build --build-tests")
        let quoted = ([ReplayInNewProcessTests.executable.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -f \(blocks) && exec \(quoted)"]
        process.currentDirectoryURL = URL(fileURLWithPath: PackageRoot.path)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason, String(decoding: outData, as: UTF8.self),
                String(decoding: errData, as: UTF8.self))
    }

    @Test("a report over the file size limit exits 73 with one line naming the limit, and leaves no temporary file")
    func reportOverFileSizeLimit() throws {
        let folder = TemporaryFolder()
        let report = folder.path + "/report.json"
        // One block (512 or 1,024 bytes, by shell) is far below a report, which holds a coverage map.
        let run = try Self.spawnLimited(blocks: 1, ["fuzz", PackageRoot.scenario("download-manager-p1-overwritten-task-id-ios17.json"),
                                                    "--runs", "4", "--jobs", "1", "--quiet", "--no-failure-db",
                                                    "--report", report])
        #expect(run.status == .exit, "ended by a signal (SIGXFSZ is \(SIGXFSZ)): \(run.code)")
        #expect(run.code == ExitCode.cannotCreate.rawValue, "\(run.stderr)")
        #expect(run.stderr.contains("\(report): cannot write: the file size limit (ulimit -f) stopped writing it"),
                "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        #expect(left.isEmpty, "no report and no temporary file: \(left)")
    }
}
