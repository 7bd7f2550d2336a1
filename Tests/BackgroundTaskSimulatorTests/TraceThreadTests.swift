@testable import BackgroundTaskSimulator
import DeterministicSimulation
import SimulationFormats
import Testing

/// A kept trace names the simulated thread each event happened on, so that a race reads as one:
/// which thread ended the task, which thread ran the handler. The thread is not in the digest.
@Suite("The trace's thread column")
struct TraceThreadTests {
    static func spec(_ workload: String, _ variant: String, concurrency: ConcurrencySettings = ConcurrencySettings())
        -> RunSpec
    {
        let entry = WorkloadCatalog.variant(workload: workload, variant: variant)!
        var environment = EnvironmentConfig()
        environment.concurrency = concurrency
        return RunSpec(profile: .ios17, environment: environment, workload: entry.info, invariants: Invariant.all,
                       horizon: .seconds(1_800))
    }

    /// The first of 60 seeds whose run violates `invariant`, replayed with its trace kept.
    static func firstFailure(_ spec: RunSpec, _ invariant: String) throws -> RunOutcome {
        let seed = try #require((0..<60).map { Seed(0x7417_0000_0000_0000 | UInt64($0)) }.first { seed in
            SimulationRunner.run(spec, choices: ChoiceSource(seed: seed)).firstViolation(of: invariant) != nil
        }, "no run of 60 violated \(invariant)")
        return SimulationRunner.run(spec, choices: ChoiceSource(seed: seed), keepTrace: true)
    }

    @Test("the planted photo-sync race shows the worker's end of .invalid after the handler's end on main")
    func raceNamesBothThreads() throws {
        let spec = Self.spec("photo-sync", "unguarded-task-id")
        let outcome = try Self.firstFailure(spec, "no-double-end")
        let unknownAt = try #require(outcome.trace.firstIndex { $0.event.name == "task.endUnknown" })
        let unknownEnd = outcome.trace[unknownAt]
        let handler = try #require(outcome.trace[..<unknownAt].last { $0.event.name == "task.expirationHandler" })
        let worker = try #require(unknownEnd.thread, "the worker's end has no thread")
        let process = try #require(worker.split(separator: ".").first, "\(worker) names no process")
        #expect(worker.hasPrefix("\(process).global#"), "the stored id was ended again from \(worker)")
        #expect(handler.thread == "\(process).main", "A3.1: expiration handlers run on main")
        let violation = try #require(outcome.trace.first { $0.event.name == "violation" })
        #expect(violation.thread == worker, "the violation is recorded on the thread whose call broke the invariant")

        let digestOnly = SimulationRunner.run(spec, choices: ChoiceSource(replaying: outcome.choices))
        #expect(digestOnly.digest == outcome.digest, "keeping the trace (and its threads) changed the run")

        let text = outcome.traceText
        let line = try #require(text.split(separator: "\n").first { $0.contains("task.endUnknown") })
        #expect(line.contains("  \(worker) "), "no thread column in: \(line)")
        let json = try #require(JSONParser().parse(outcome.traceJSON)["trace"]?.arrayValue)
        let unknownJSON = try #require(json.first { $0["event"]?.stringValue == "task.endUnknown" })
        #expect(unknownJSON["thread"]?.stringValue == worker)
    }

    @Test("events outside every job have no thread, and are marked - in the text")
    func systemEventsHaveNoThread() throws {
        let outcome = SimulationRunner.run(Self.spec("token", "correct"), choices: ChoiceSource(seed: Seed(3)),
                                           keepTrace: true)
        let threads = outcome.trace.compactMap(\.thread)
        #expect(threads.contains("p1.main"), "no event on main in \(outcome.traceText)")
        #expect(threads.contains("system"), "no event of the simulated OS in \(outcome.traceText)")
        let systemEvent = try #require(outcome.trace.first { $0.thread == nil }, "every event had a thread")
        #expect(systemEvent.event.name == "run.threads", "run.threads is recorded before the first job")
        let lines = outcome.traceText.split(separator: "\n")
        #expect(lines.contains { $0.contains(systemEvent.event.name) && $0.contains(" -  ") },
                "no '-' thread column for \(systemEvent.event.name)")
    }

    @Test("a run without controlled concurrency keeps the trace's old columns")
    func oneThreadRunHasNoColumn() {
        let outcome = SimulationRunner.run(Self.spec("token", "correct", concurrency: .off),
                                           choices: ChoiceSource(seed: Seed(3)), keepTrace: true)
        #expect(outcome.trace.allSatisfy { $0.thread == nil })
        let first = outcome.traceText.split(separator: "\n").first { $0.contains("env.launch") }
        #expect(first?.hasSuffix("notRunning  env.launch") == true, "\(first ?? "none")")
        #expect(!outcome.traceJSON.contains("\"thread\""))
    }

    @Test("a report's failure trace carries the thread of each event")
    func reportTraceCarriesThreads() throws {
        let line = TraceLine(time: VirtualTime(microseconds: 1_500_000), name: "task.end",
                             fields: [TraceField("id", .int(1))], thread: "p1.global#2")
        let json = JSONWriter(style: .compact).string(for: CampaignReport.traceLineJSON(line))
        #expect(json == #"{"t":1.5,"event":"task.end","thread":"p1.global#2","id":1}"#)
        let system = TraceLine(time: .zero, name: "env.home", fields: [])
        #expect(JSONWriter(style: .compact).string(for: CampaignReport.traceLineJSON(system)) == #"{"t":0.0,"event":"env.home"}"#)
    }
}
