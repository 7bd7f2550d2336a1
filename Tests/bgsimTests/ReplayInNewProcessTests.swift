import BGSimCommands
import Foundation
import Testing

/// The user's second job: a failure found by `fuzz` reproduces with the printed command, in a new
/// process, exactly (same trace digest, same violation).
@Suite struct ReplayInNewProcessTests {
    /// The `bgsim` executable next to the test bundle (`swift build --build-tests` builds both).
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bgsim")
    }

    static func runProcess(_ arguments: [String], environment: [String: String] = [:]) throws
        -> (code: Int32, stdout: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.currentDirectoryURL = URL(fileURLWithPath: PackageRoot.path)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The arguments of the first `replay:` line printed by a fuzz run.
    static func printedReplay(_ stdout: String, marker: String) -> [String]? {
        guard let line = stdout.split(separator: "\n").first(where: { $0.contains(marker) }),
              let start = line.range(of: "bgsim replay ") else { return nil }
        return ["replay"] + line[start.upperBound...].split(separator: " ").map(String.init)
    }

    static func digestLine(_ stdout: String) -> Substring? {
        stdout.split(separator: "\n").first { $0.hasPrefix("digest ") }
    }

    @Test("the printed seed and choices replay commands reproduce the failure in a new process",
          arguments: ["download-manager-p1-overwritten-task-id-ios17.json", "backup-p4-unconditional-end-ios17.json",
                      "bg-scheduler-app-p7-double-completion-ios17.json",
                      "forecast-refresh-retry-ignores-cancellation-ios17.json",
                      // A Task {} made in a lifecycle callback takes its thread's priority, and an
                      // actor orders its callers by it: the new process replays on its main thread.
                      "actor-reentrancy-claims-after-await-ios17.json"])
    func printedReplayReproduces(file: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path),
                     "build bgsim first: swift build --build-tests")
        let fuzz = CLIRun(["fuzz", PackageRoot.scenario(file), "--runs", "30", "--jobs", "1", "--quiet"])
        #expect(fuzz.code == .success, "the planted bug is found as expected: \(fuzz.stderr)")
        for marker in ["replay: bgsim replay", "--choices"] {
            let arguments = try #require(Self.printedReplay(fuzz.stdout, marker: marker), "\(fuzz.stdout)")
            let inProcess = CLIRun(arguments)
            let child = try Self.runProcess(arguments)
            #expect(inProcess.code == .violation)
            #expect(child.code == ExitCode.violation.rawValue, "\(arguments)")
            let digest = try #require(Self.digestLine(inProcess.stdout))
            #expect(Self.digestLine(child.stdout) == digest, "new process: \(child.stdout.suffix(400))")
            #expect(child.stdout.contains("VIOLATION "))
        }
    }
}
