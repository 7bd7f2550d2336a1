import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// Data races on plain state, as apps write it: a stored property, a global, a captured variable
/// touched from the main queue and a background queue with no lock (`no-data-race`), and the
/// same code made correct with a lock, a serial queue or a hand-off to main (no finding). The
/// app code here is unchanged app code: no shared-state type, no call to the harness.
@Suite(.enabled(if: Scheduler.seesPlainAccesses && VirtualClocks.isSupported))
struct PlainStateRaceTests {
    static func run(_ name: String, seed: UInt64 = 1, _ make: @escaping @Sendable () -> any Workload) -> RunOutcome {
        RealDispatchTests.run(name, seed: seed, make)
    }

    static func races(_ outcome: RunOutcome) -> [String] {
        outcome.violations.filter { $0.invariant == "no-data-race" }.map(\.message)
    }

    static func others(_ outcome: RunOutcome) -> [String] {
        outcome.violations.filter { $0.invariant != "no-data-race" }.map { "\($0.invariant): \($0.message)" }
    }

    @Test("a flag set on a global queue and read on main with no lock is a data race, named by its property")
    func unguardedFlagRaces() throws {
        let outcome = Self.run("flag") { DoneFlagUpload(guarding: .nothing) }
        let race = try #require(Self.races(outcome).first, "no race: \(outcome.violations)")
        #expect(race.contains("'a variable used in DoneFlagUpload.didFinishLaunching(WorkloadContext)'"), "\(race)")
        #expect(race.contains("a write in closure #2 in closure #1 in DoneFlagUpload.didFinishLaunching(WorkloadContext) on p1.global#1"),
                "\(race)")
        #expect(race.contains("a write") && race.contains("a read"), "\(race)")
        #expect(Self.others(outcome).isEmpty, "\(Self.others(outcome))")
    }

    @Test("the same flag under an NSLock, on a serial queue, or handed to main by the worker is no race",
          arguments: [DoneFlagUpload.Guarding.lock, .serialQueue, .handOff])
    func guardedFlagHolds(_ guarding: DoneFlagUpload.Guarding) {
        for seed in 1...8 as ClosedRange<UInt64> {
            let outcome = Self.run("flag", seed: seed) { DoneFlagUpload(guarding: guarding) }
            #expect(outcome.violations.isEmpty, "seed \(seed): \(outcome.violations.map(\.message))")
        }
    }

    @Test("a global counter incremented on two queues races; a captured var does too")
    func globalsAndCapturesRace() throws {
        let global = Self.run("global") { CountsInAGlobal() }
        let race = try #require(Self.races(global).first, "no race: \(global.violations)")
        #expect(race.contains("CountsInAGlobal"), "\(race)")
        let captured = Self.run("captured") { CountsInACapture() }
        #expect(!Self.races(captured).isEmpty, "no race: \(captured.violations)")
    }

    @Test("a race on plain state replays to the same trace and report")
    func raceReplays() {
        let first = Self.run("flag", seed: 3) { DoneFlagUpload(guarding: .nothing) }
        let second = Self.run("flag", seed: 3) { DoneFlagUpload(guarding: .nothing) }
        #expect(first.digest == second.digest)
        #expect(first.violations.map(\.message) == second.violations.map(\.message))
    }
}

/// An uploader's done flag: written by the upload on a global queue, read by the expiration
/// check on main.
final class DoneFlagUpload: Workload, @unchecked Sendable {
    enum Guarding: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case nothing, lock, serialQueue, handOff
        var testDescription: String { rawValue }
    }

    let guarding: Guarding
    var isDone = false
    private let lock = NSLock()
    private let state = DispatchQueue(label: "upload.state")
    private var observation: LifecycleObservation?

    init(guarding: Guarding) { self.guarding = guarding }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground { [self] in
            let token = BackgroundTaskToken(name: "upload", host: app) {}
            DispatchQueue.global().async { [self] in
                app.performBlockingWork(for: .milliseconds(200))
                switch guarding {
                case .nothing: isDone = true
                case .lock: lock.withLock { isDone = true }
                case .serialQueue: state.sync { isDone = true }
                case .handOff: DispatchQueue.main.async { self.isDone = true }
                }
            }
            DispatchQueue.main.asyncAfter(deadline: .now() + 1) { [self] in
                let done: Bool
                switch guarding {
                case .nothing, .handOff: done = isDone
                case .lock: done = lock.withLock { isDone }
                case .serialQueue: done = state.sync { isDone }
                }
                if !done { app.performBlockingWork(for: .milliseconds(10)) }
                token.invalidate()
            }
        }
    }
}

nonisolated(unsafe) var uploadsCounted = 0

/// Counts finished uploads in a global from two queues.
final class CountsInAGlobal: Workload, @unchecked Sendable {
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.onDidEnterBackground {
            DispatchQueue.global().async { uploadsCounted += 1 }
            DispatchQueue.global().async { uploadsCounted += 1 }
        }
    }
}

/// Counts finished uploads in a variable two closures capture.
final class CountsInACapture: Workload, @unchecked Sendable {
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.onDidEnterBackground {
            nonisolated(unsafe) var finished = 0
            DispatchQueue.global().async { finished += 1 }
            DispatchQueue.main.async { if finished == 0 { finished = -1 } }
        }
    }
}
