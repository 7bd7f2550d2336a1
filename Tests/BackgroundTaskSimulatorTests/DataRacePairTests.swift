import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// The planted data races of issue 36 (flag, stored id, stored completion handler) and their
/// twins: each planted race trips `no-data-race`, naming its shared state, and its twin, which
/// differs only by its synchronisation, holds it on the same run seeds. ``InvariantCanFailTests``
/// keeps one pair in its table; this suite checks all three.
@Suite struct DataRacePairTests {
    static let pairs: [(planted: String, correct: String, state: String)] = [
        ("receipt-upload/unguarded-did-complete", "receipt-upload/correct", "receipt-upload didComplete"),
        ("video-upload/unguarded-upload-id", "video-upload/correct", "video-upload uploadID"),
        ("thumbnail-prefetch/completion-handler-set-after-start", "thumbnail-prefetch/correct",
         "thumbnail-prefetch onFinish"),
    ]

    static func spec(_ workload: String) throws -> RunSpec {
        let entry = try #require(WorkloadCatalog.all.first { $0.info.name == workload })
        #expect(entry.info.sharesState, "\(workload) must declare sharesState")
        return RunSpec(profile: .ios17, environment: EnvironmentConfig(), workload: entry.info,
                       invariants: Invariant.all, horizon: .seconds(1_800))
    }

    /// The `no-data-race` messages of the first run (of at most `runs`) of `workload` that has one,
    /// with that run's seed; every run when `stopAtFirst` is false. Each racing run is run again
    /// and must give the same digest (a report must not depend on the process's earlier runs).
    static func races(in workload: String, runs: Int, stopAtFirst: Bool) throws -> [(seed: Seed, message: String)] {
        let spec = try spec(workload)
        var found: [(Seed, String)] = []
        for index in 0..<runs {
            let seed = Seed(0x1a7).derive(index: UInt64(index))
            let outcome = SimulationRunner.run(spec, choices: ChoiceSource(seed: seed))
            let races = outcome.violations.filter { $0.invariant == "no-data-race" }
            guard !races.isEmpty else { continue }
            found += races.map { (seed, $0.message) }
            let again = SimulationRunner.run(spec, choices: ChoiceSource(seed: seed))
            #expect(again.digest == outcome.digest, "\(workload) does not replay: seed: \(seed)")
            if stopAtFirst { break }
        }
        return found
    }

    @Test("a planted race trips no-data-race naming its state; its twin holds it", arguments: pairs.map(\.planted))
    func plantedRaceAndTwin(planted: String) throws {
        let pair = try #require(Self.pairs.first { $0.planted == planted })
        let found = try Self.races(in: pair.planted, runs: 150, stopAtFirst: true)
        #expect(!found.isEmpty, "\(pair.planted) must trip no-data-race in 150 runs")
        for (seed, message) in found {
            #expect(message.contains("'\(pair.state)'"), "seed: \(seed): \(message)")
        }
        let twin = try Self.races(in: pair.correct, runs: InvariantCanFailTests.correctRuns, stopAtFirst: false)
        for (seed, message) in twin.prefix(3) {
            Issue.record("\(pair.correct) must hold no-data-race: \(message) (replay: run seed \(seed))")
        }
    }

    @Test("a race's trace shows both conflicting steps: the access event of each, on its thread at its time",
          arguments: pairs.map(\.planted))
    func traceShowsBothAccesses(planted: String) throws {
        let pair = try #require(Self.pairs.first { $0.planted == planted })
        let seed = try #require(try Self.races(in: planted, runs: 150, stopAtFirst: true).first?.seed)
        let outcome = SimulationRunner.run(try Self.spec(planted), choices: ChoiceSource(seed: seed), keepTrace: true)
        let trace = outcome.trace
        let raceIndex = try #require(trace.firstIndex { if case .dataRace = $0.event { true } else { false } })
        guard case .dataRace(let message) = trace[raceIndex].event else { return }
        // Each access the race names ("a write on p1.global#1 (job 10) at 0.010000s") is an event
        // of the trace before it: that thread, that time, that kind, that state.
        let named = trace[..<raceIndex].filter { entry in
            guard case .sharedAccess(let state, let write) = entry.event, state == pair.state,
                  let thread = entry.thread else { return false }
            let article = write ? "a write" : "a read"
            return message.contains("\(article) on \(thread) (job ") && message.contains("at \(entry.time)")
        }
        #expect(Set(named.compactMap(\.thread)).count == 2, "seed \(seed): \(named.map(\.thread)), race: \(message)")
        // The second access is the event just before its race, on the same thread.
        if case .sharedAccess = trace[raceIndex - 1].event {
            #expect(trace[raceIndex - 1].thread == trace[raceIndex].thread, "seed \(seed): \(message)")
        } else {
            Issue.record("seed \(seed): the race's event does not follow its access: \(trace[raceIndex - 1].event)")
        }
    }
}
