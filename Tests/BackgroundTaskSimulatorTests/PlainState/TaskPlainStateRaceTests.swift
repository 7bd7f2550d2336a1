import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// Data races on plain state in Swift concurrency code as apps write it: an `@unchecked
/// Sendable` object that detached tasks update races (found in the tasks' own jobs), while the
/// same object handed over by awaiting a task's value, a task group, `async let`, an actor's
/// turns, a hop to the main actor or a continuation resumed before its task awaits is ordered
/// (the Swift runtime's own happens-before marks, and a task's steps and an actor's turns kept
/// in order wherever they run).
@Suite(.enabled(if: Scheduler.seesPlainAccesses && VirtualClocks.isSupported))
struct TaskPlainStateRaceTests {
    static func run(_ way: PhotoSyncTasks.Way, seed: UInt64) -> RunOutcome {
        RealDispatchTests.run("photo-sync", seed: seed, usesAsync: true) { PhotoSyncTasks(way: way) }
    }

    @Test("detached tasks, or a task group's children, that count into one object race with each other and with the main actor's read",
          arguments: [PhotoSyncTasks.Way.detachedCounters, .detachedThenMainRead, .groupChildrenCount])
    func detachedTasksRace(_ way: PhotoSyncTasks.Way) throws {
        for seed in 1...6 as ClosedRange<UInt64> {
            let outcome = Self.run(way, seed: seed)
            let race = try #require(PlainStateRaceTests.races(outcome).first, "seed \(seed): no race: \(outcome.violations)")
            #expect(race.contains("PhotoSyncTasks.didFinishLaunching(WorkloadContext)"), "\(race)")
            #expect(race.contains(".tasks#"), "the race is found in a task's job: \(race)")
            #expect(PlainStateRaceTests.others(outcome).isEmpty, "\(PlainStateRaceTests.others(outcome))")
        }
    }

    @Test("a task's value, a continuation resumed before its task awaits, a task group, async let, an actor's turns (also across an await), a stream into an actor and main-actor hops order the accesses: no race",
          arguments: [PhotoSyncTasks.Way.awaitsTheTask, .bridgesACallback, .taskGroup, .asyncLet, .actorTurns,
                      .actorAcrossAwait, .streamIntoActor, .mainActorHops])
    func orderedHandOversHold(_ way: PhotoSyncTasks.Way) {
        for seed in 1...10 as ClosedRange<UInt64> {
            let outcome = Self.run(way, seed: seed)
            #expect(outcome.violations.isEmpty, "seed \(seed): \(outcome.violations.map(\.message))")
        }
    }

    @Test("a race in a task's job replays to the same trace and report")
    func taskRaceReplays() {
        let first = Self.run(.detachedCounters, seed: 4)
        let again = Self.run(.detachedCounters, seed: 4)
        #expect(!PlainStateRaceTests.races(first).isEmpty)
        #expect(first.digest == again.digest)
        #expect(first.violations.map(\.message) == again.violations.map(\.message))
    }
}

/// A photo-sync service that counts the photos it processed, in the ways apps write it with
/// Swift concurrency: three racy, eight ordered.
final class PhotoSyncTasks: Workload, @unchecked Sendable {
    enum Way: String, Sendable, CustomTestStringConvertible {
        /// Each photo's detached task adds to `processed` (racy).
        case detachedCounters
        /// One detached task adds; the main actor reads after a sleep, not after the task (racy).
        case detachedThenMainRead
        /// A task group's children each add to `processed` (racy).
        case groupChildrenCount
        /// One detached task adds; the main actor reads after `await task.value`.
        case awaitsTheTask
        /// A legacy callback API bridged with a continuation: the callback writes, then resumes.
        case bridgesACallback
        /// A task group's children compute, the parent adds their results.
        case taskGroup
        /// `async let` writes, the parent reads after awaiting it.
        case asyncLet
        /// An actor's methods count in its `nonisolated(unsafe)` storage, from several tasks.
        case actorTurns
        /// An actor's method reads its count, awaits, then writes it back (reentrant, but each
        /// turn is the actor's alone), from several tasks.
        case actorAcrossAwait
        /// A GCD queue yields progress objects into an `AsyncStream` an actor consumes.
        case streamIntoActor
        /// Detached tasks add on the main actor (`MainActor.run`).
        case mainActorHops
        var testDescription: String { rawValue }
    }

    final class Progress: @unchecked Sendable {
        var processed = 0
    }

    actor Ledger {
        nonisolated(unsafe) var recorded = 0
        let history = Progress()
        func record() { recorded += 1 }
        func recordSlowly() async {
            let before = history.processed
            try? await Task.sleep(for: .milliseconds(5))
            history.processed = before + 1
        }
        func total(of updates: AsyncStream<Progress>) async -> Int {
            for await update in updates { history.processed += update.processed }
            return history.processed
        }
    }

    let way: Way
    private var observation: LifecycleObservation?

    init(way: Way) { self.way = way }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        let way = self.way
        observation = context.onDidEnterBackground {
            let token = BackgroundTaskToken(name: "photo-sync", host: app) {}
            let progress = Progress()
            switch way {
            case .detachedCounters:
                for _ in 0..<3 { Task.detached { progress.processed += 1 } }
                Task { @MainActor in try? await Task.sleep(for: .seconds(1)); token.invalidate() }
            case .detachedThenMainRead, .awaitsTheTask:
                let sync = Task.detached { progress.processed += 1 }
                Task { @MainActor in
                    if way == .awaitsTheTask { await sync.value } else { try? await Task.sleep(for: .milliseconds(1)) }
                    if progress.processed == 0 { app.performBlockingWork(for: .milliseconds(1)) }
                    token.invalidate()
                }
            case .bridgesACallback:
                Task { @MainActor in
                    let count: Int = await withCheckedContinuation { continuation in
                        DispatchQueue.global().async {
                            progress.processed = 3
                            continuation.resume(returning: 3)
                        }
                    }
                    if progress.processed != count { app.performBlockingWork(for: .milliseconds(1)) }
                    token.invalidate()
                }
            case .taskGroup:
                Task.detached {
                    await withTaskGroup(of: Int.self) { group in
                        for photo in 0..<3 { group.addTask { photo + 1 } }
                        for await size in group { progress.processed += size }
                    }
                    let total = progress.processed
                    await MainActor.run { if total > 0 { token.invalidate() } }
                }
            case .asyncLet:
                Task.detached {
                    async let first: Int = { progress.processed = 1; return 1 }()
                    let value = await first
                    let total = progress.processed + value
                    await MainActor.run { if total > 0 { token.invalidate() } }
                }
            case .actorTurns:
                let ledger = Ledger()
                for _ in 0..<4 { Task.detached { await ledger.record() } }
                Task { @MainActor in try? await Task.sleep(for: .seconds(1)); token.invalidate() }
            case .groupChildrenCount:
                Task.detached {
                    await withTaskGroup(of: Void.self) { group in
                        for _ in 0..<3 { group.addTask { progress.processed += 1 } }
                    }
                    await MainActor.run { _ = token.invalidate() }
                }
            case .actorAcrossAwait:
                let ledger = Ledger()
                for _ in 0..<3 { Task.detached { await ledger.recordSlowly() } }
                Task { @MainActor in try? await Task.sleep(for: .seconds(1)); token.invalidate() }
            case .streamIntoActor:
                let ledger = Ledger()
                let (updates, continuation) = AsyncStream<Progress>.makeStream()
                Task.detached {
                    _ = await ledger.total(of: updates)
                    await MainActor.run { _ = token.invalidate() }
                }
                DispatchQueue.global().async {
                    for photo in 0..<3 {
                        let update = Progress()
                        update.processed = photo
                        continuation.yield(update)
                    }
                    continuation.finish()
                }
            case .mainActorHops:
                for photo in 0..<3 { Task.detached { await MainActor.run { progress.processed += photo } } }
                Task { @MainActor in
                    try? await Task.sleep(for: .seconds(1))
                    if progress.processed > 10 { app.performBlockingWork(for: .milliseconds(1)) }
                    token.invalidate()
                }
            }
        }
    }
}
