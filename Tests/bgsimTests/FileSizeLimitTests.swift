import BGSimCommands
import Foundation
import Testing

/// Issue 32, item 5: under a file size limit (`ulimit -f`, RLIMIT_FSIZE) the kernel would end
/// bgsim with SIGXFSZ mid-write, silently, leaving its temporary file. bgsim ignores SIGXFSZ at
/// start-up, so the write fails with EFBIG: one clear line, exit 73, no temporary file left.
@Suite struct FileSizeLimitTests {
    struct Ended {
        /// The exit status, or `nil` when a signal ended the process.
        var code: Int32?
        var signal: Int32?
        var stdout: String
        var stderr: String
    }

    /// Runs the built bgsim under `ulimit -f <blocks>`, set by `/bin/sh` in the child before it
    /// `exec`s bgsim. The child starts with SIGXFSZ at its default action and no signal blocked
    /// (`POSIX_SPAWN_SETSIGDEF`, `POSIX_SPAWN_SETSIGMASK`), as from a login shell, whatever this
    /// test's thread has (Foundation's `Process` passes on a mask that blocks SIGXFSZ, which hid
    /// the defect); its output goes to pipes, which the limit does not cover.
    static func spawnLimited(blocks: Int, _ arguments: [String]) throws -> Ended {
        let executable = ReplayInNewProcessTests.executable.path
        try #require(FileManager.default.isExecutableFile(atPath: executable), "build bgsim first: swift build --build-tests")
        let words = ["/bin/sh", "-c", "ulimit -f \(blocks) && exec \"$0\" \"$@\"", executable] + arguments
        var out: [Int32] = [0, 0]
        var err: [Int32] = [0, 0]
        try #require(pipe(&out) == 0 && pipe(&err) == 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGXFSZ)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ)
        close(out[1])
        close(err[1])
        let stdout = FileHandle(fileDescriptor: out[0], closeOnDealloc: true)
        let stderr = FileHandle(fileDescriptor: err[0], closeOnDealloc: true)
        try #require(spawned == 0, "posix_spawn: \(String(cString: strerror(spawned)))")
        let outData = stdout.readDataToEndOfFile()
        let errData = stderr.readDataToEndOfFile()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return Ended(code: signal == 0 ? (status >> 8) & 0xff : nil, signal: signal == 0 ? nil : signal,
                     stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    @Test("a report over the file size limit exits 73 with one line naming the limit, and leaves no temporary file")
    func reportOverFileSizeLimit() throws {
        let folder = TemporaryFolder()
        let report = folder.path + "/report.json"
        // One block (512 or 1,024 bytes, by shell) is far below a report, which holds a coverage map.
        let run = try Self.spawnLimited(blocks: 1, ["fuzz", PackageRoot.scenario("download-manager-p1-overwritten-task-id-ios17.json"),
                                                    "--runs", "4", "--jobs", "1", "--quiet", "--no-failure-db",
                                                    "--report", report])
        #expect(run.signal == nil, "ended by signal \(run.signal ?? 0) (SIGXFSZ is \(SIGXFSZ)): \(run.stderr)")
        #expect(run.code == ExitCode.cannotCreate.rawValue, "\(run.stderr)")
        #expect(run.stderr.contains("\(report): cannot write: the file size limit (ulimit -f) stopped writing it"),
                "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        #expect(left.isEmpty, "no report and no temporary file: \(left)")
    }
}
