import BGSimCommands
import DeterministicSimulation
import SimulationFormats
import Foundation
import Testing

/// `replay`'s outputs: the readable trace with violations marked, `--trace` JSON and
/// `--perfetto` trace events (app states and task lifetimes as slices, lifecycle events and
/// violations as instants, each event on its simulated thread's track); and `list --json`.
@Suite struct ReplayOutputTests {
    static let p1 = PackageRoot.scenario("download-manager-p1-overwritten-task-id-ios17.json")
    /// The shrunk P1 run: two background entries and the deadline.
    static let shrunk = "c1.AAAAAQAAAAAAAQAAAAEAAAAAAAA"

    @Test func readableTraceMarksTheViolations() {
        let run = CLIRun(["replay", Self.p1, "--choices", Self.shrunk])
        #expect(run.code == .violation)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix(">>") && $0.contains("invariant=\"every-begin-ended\"") })
        #expect(lines.contains { $0.contains("background") && $0.contains("task.begin") })
        #expect(lines.contains { $0.contains("  p1.main  ") && $0.contains("lifecycle.didEnterBackground") },
                "the thread column names the main thread")
        #expect(lines.contains { $0.hasPrefix("digest ") })
        #expect(lines.contains { $0.hasPrefix("VIOLATION every-begin-ended at 30.030000s") })
    }

    @Test func traceAndPerfettoFiles() throws {
        let folder = TemporaryFolder()
        let trace = folder.path + "/trace.json"
        let perfetto = folder.path + "/perfetto.json"
        let run = CLIRun(["replay", Self.p1, "--choices", Self.shrunk, "--trace", trace, "--perfetto", perfetto])
        #expect(run.code == .violation)
        let traceData = try #require(FileManager.default.contents(atPath: trace))
        let file = try JSONParser().parse([UInt8](traceData))
        // The header says which run this is and how to get it again.
        #expect(file["formatVersion"] == .int(1))
        #expect(file["tool"]?["name"] == .string("bgsim"))
        #expect(file["scenario"]?["file"] == .string(Self.p1))
        #expect(file["replay"]?.stringValue?.hasSuffix("replay \(Self.p1) --choices \(Self.shrunk)") == true, "\(file["replay"] ?? .null)")
        #expect(file["digest"]?.stringValue?.count == 16)
        #expect(file["violations"]?.arrayValue?.contains { $0["invariant"] == .string("every-begin-ended") } == true)
        let lines = try #require(file["trace"]?.arrayValue)
        #expect(file["events"] == .int(Int64(lines.count)))
        #expect(lines.first?["event"] == .string("run.threads"))
        #expect(lines.dropFirst().first?["event"] == .string("env.launch"))
        #expect(lines.contains { $0["event"] == .string("violation") && $0["invariant"] == .string("every-begin-ended") })
        let entered = try #require(lines.first { $0["event"] == .string("lifecycle.didEnterBackground") })
        #expect(entered["thread"] == .string("p1.main"), "lifecycle notifications are delivered on main")
        let perfettoData = try #require(FileManager.default.contents(atPath: perfetto))
        let root = try JSONParser().parse([UInt8](perfettoData))
        let events = try #require(root["traceEvents"]?.arrayValue)
        let slices = events.filter { $0["ph"] == .string("X") }
        let instants = events.filter { $0["ph"] == .string("i") }
        #expect(slices.contains { $0["name"] == .string("background") }, "app states as slices")
        #expect(slices.contains { ($0["name"]?.stringValue ?? "").contains("downloads") }, "task lifetimes as slices")
        let enteredInstant = try #require(instants.first { $0["name"] == .string("lifecycle.didEnterBackground") })
        let mainTrack = try #require(events.first {
            $0["ph"] == .string("M") && $0["args"]?["name"] == .string("thread p1.main")
        }, "the simulated main thread has its own track")
        #expect(enteredInstant["tid"] == mainTrack["tid"], "host calls and notifications sit on their thread's track")
        #expect(instants.contains { ($0["name"]?.stringValue ?? "").contains("every-begin-ended") }, "violations")
        #expect(events.allSatisfy { $0["ts"]?.intValue != nil || $0["ph"] == .string("M") })
    }

    @Test func listJSONNamesEverything() throws {
        let run = CLIRun(["list", "--json"])
        #expect(run.code == .success)
        let root = try JSONParser().parse(Array(run.stdout.utf8))
        #expect((root["workloads"]?.arrayValue?.count ?? 0) >= 15)
        #expect(root["invariants"]?.arrayValue?.contains { $0["id"] == .string("no-double-end") } == true)
        #expect((root["profiles"]?.arrayValue?.count ?? 0) == 4)
        #expect((root["rules"]?.arrayValue?.count ?? 0) == 115)
    }
}
