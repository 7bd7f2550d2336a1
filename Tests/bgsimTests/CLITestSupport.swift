import BGSimCommands
import Foundation

/// Runs `bgsim` in process with captured output.
struct CLIRun {
    let code: ExitCode
    let stdout: String
    let stderr: String

    init(_ arguments: [String], environment: [String: String] = [:]) {
        let (io, captured) = CommandIO.capturing(environment: environment)
        code = BGSim.run(arguments, io: io)
        stdout = captured.stdout
        stderr = captured.stderr
    }

    /// The stderr lines (a failing command prints exactly one).
    var errorLines: [Substring] { stderr.split(separator: "\n") }

    /// The campaign digest of the summary's first digest line (`...; digest 6a708347eb6121b8`).
    var digest: Substring? {
        stdout.split(separator: "\n").first { $0.contains("; digest ") }?.split(separator: ";").last
    }

    /// Runs `arguments` with `--jobs 1` and with `--jobs 2`: a campaign's results must not depend
    /// on the number of jobs, so callers compare the two (``digest``, printed replays).
    static func withOneAndTwoJobs(_ arguments: [String]) -> (one: CLIRun, two: CLIRun) {
        (CLIRun(arguments + ["--jobs", "1"]), CLIRun(arguments + ["--jobs", "2"]))
    }
}

/// A fresh temporary directory for one test; files written into it by name.
struct TemporaryFolder {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("bgsim-tests-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    @discardableResult
    func write(_ name: String, _ text: String) -> String {
        write(name, bytes: Array(text.utf8))
    }

    @discardableResult
    func write(_ name: String, bytes: [UInt8]) -> String {
        let file = path + "/" + name
        _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
        return file
    }
}

/// The package's root (for the `Scenarios/` folder), found from this source file.
enum PackageRoot {
    static let path: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static func scenario(_ name: String) -> String { path + "/Scenarios/" + name }
}

/// A valid scenario text with one field replaced, for the bad-input table.
enum ScenarioText {
    static let valid = """
        {
          "name": "bad-input-base",
          "workload": "download-manager",
          "variant": "p1-overwritten-task-id",
          "profile": "ios17",
          "campaign": {"runs": 10, "seed": "0x1", "horizonSeconds": 600},
          "expect": {"violation": "every-begin-ended"}
        }
        """

    static func replacing(_ old: String, with new: String) -> String {
        precondition(valid.contains(old), "test bug: '\(old)' is not in the base scenario")
        return valid.replacingOccurrences(of: old, with: new)
    }
}

/// Runs one Swift Testing test of this test bundle in a child process (a test that ends its
/// process: a crash or a hang of a `WorkloadCampaign`), with `variable` set to `value` (such a
/// test is enabled only where it is set).
struct ChildTestRun {
    let status: Int32
    let exited: Bool
    let stderr: String

    init(filter: String, variable: String, value: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        process.environment = ProcessInfo.processInfo.environment.merging([variable: value]) { $1 }
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        status = process.terminationStatus
        exited = process.terminationReason == .exit
    }
}
