import BGSimCommands
import DeterministicSimulation
import SimulationFormats
import Foundation
import Testing

/// Issue 8: an interrupted campaign (SIGINT) writes the report of the runs it finished, marked
/// interrupted, and exits 130; nothing the user had is lost.
@Suite struct InterruptTests {
    @Test func interruptedFuzzWritesAnIncompleteReportAndExits130() throws {
        let folder = TemporaryFolder()
        let report = folder.path + "/report.json"
        let junit = folder.path + "/junit.xml"
        let stop = Interrupt()
        stop.request()  // as if Ctrl-C came at once
        let (io, captured) = CommandIO.capturing()
        let code = BGSim.run(["fuzz", PackageRoot.scenario("token-correct-ios17.json"), "--runs", "500",
                              "--report", report, "--junit", junit], io: io, interrupt: stop)
        #expect(code == .interrupted)
        #expect(captured.stderr.contains("interrupted"))
        #expect(captured.stderr.split(separator: "\n").count == 1)
        let data = try #require(FileManager.default.contents(atPath: report), "the report must be written")
        let json = try JSONParser().parse([UInt8](data))
        #expect(json["summary"]?["interrupted"] == .bool(true))
        let runs = try #require(json["summary"]?["runs"]?.intValue)
        #expect(runs < 500)
        #expect(FileManager.default.fileExists(atPath: junit))
    }

    @Test func anUnwritableReportFailsBeforeAnyRunAndLeavesExistingFilesAlone() throws {
        let folder = TemporaryFolder()
        let existing = folder.write("keep.json", "{\"mine\": true}")
        let run = CLIRun(["fuzz", PackageRoot.scenario("token-correct-ios17.json"), "--runs", "5",
                          "--report", folder.path + "/missing-dir/report.json"])
        #expect(run.code == .cannotCreate)
        #expect(run.stdout.isEmpty, "no campaign ran: \(run.stdout)")
        #expect(String(decoding: FileManager.default.contents(atPath: existing) ?? Data(), as: UTF8.self)
            == "{\"mine\": true}")
    }

    @Test("SIGINT to a running bgsim process: exit 130 and a report of the finished runs")
    func sigintToARealProcess() throws {
        let executable = ReplayInNewProcessTests.executable
        try #require(FileManager.default.isExecutableFile(atPath: executable.path))
        let folder = TemporaryFolder()
        let report = folder.path + "/report.json"
        let process = Process()
        process.executableURL = executable
        process.arguments = ["fuzz", PackageRoot.scenario("token-correct-ios17.json"), "--runs", "10000000",
                             "--jobs", "1", "--quiet", "--no-failure-db", "--report", report]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1.0)  // tidy: allow the test waits for a real process to start
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let data = try #require(FileManager.default.contents(atPath: report), "the report must be written")
        let json = try JSONParser().parse([UInt8](data))
        #expect(json["summary"]?["interrupted"] == .bool(true))
        #expect((json["summary"]?["runs"]?.intValue ?? 0) > 0)
    }
}
