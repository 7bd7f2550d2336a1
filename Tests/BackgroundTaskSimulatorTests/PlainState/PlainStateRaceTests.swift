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

    @Test("a flag set on a global queue and read on main with no lock is a data race, named by the functions that touched it")
    func unguardedFlagRaces() throws {
        let outcome = Self.run("flag") { DoneFlagUpload(guarding: .nothing) }
        let race = try #require(Self.races(outcome).first, "no race: \(outcome.violations)")
        #expect(race.contains("'DoneFlagUpload.isDone'"), "the stored property, by its instance's class: \(race)")
        #expect(race.contains("a write in closure #2 in closure #1 in DoneFlagUpload.didFinishLaunching(WorkloadContext) on p1.global#1"),
                "\(race)")
        #expect(race.contains("a write") && race.contains("a read"), "\(race)")
        #expect(Self.others(outcome).isEmpty, "\(Self.others(outcome))")
    }

    @Test("a stored property read through a computed property is named, not the computed property; the getter is where")
    func computedPropertyNamesTheStoredOne() throws {
        let outcome = Self.run("trimmer") { CacheTrimmer() }
        let race = try #require(Self.races(outcome).first, "no race: \(outcome.violations)")
        #expect(race.contains("'CacheTrimmer.bytesUsed'"), "the stored property: \(race)")
        #expect(race.contains("a read in CacheTrimmer.usageDescription.getter"), "where it was read: \(race)")
        #expect(race.contains("a write in closure #2 in closure #1 in CacheTrimmer.didFinishLaunching(WorkloadContext)"),
                "\(race)")
    }

    @Test("a lazy var first touched on two queues is named as the user wrote it, not by its hidden storage")
    func lazyVarIsNamedAsWritten() throws {
        let outcome = Self.run("palette") { ThumbnailPalette() }
        let race = try #require(Self.races(outcome).first, "no race: \(outcome.violations)")
        #expect(race.contains("'ThumbnailPalette.palette'"), "the lazy var: \(race)")
        #expect(!race.contains("lazy_storage"), "\(race)")
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
/// A disk cache trimmer that frees space on a global queue and logs its usage on main through a
/// computed property, with no lock: a race on `bytesUsed`, read inside `usageDescription`'s getter.
final class CacheTrimmer: Workload, @unchecked Sendable {
    var bytesUsed = 4_096
    var usageDescription: String { "\(bytesUsed) bytes in the cache" }
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground { [self] in
            let token = BackgroundTaskToken(name: "trim", host: app) {}
            DispatchQueue.global().async { [self] in
                app.performBlockingWork(for: .milliseconds(200))
                bytesUsed = 0
            }
            DispatchQueue.main.asyncAfter(deadline: .now() + 1) { [self] in
                if usageDescription.isEmpty { app.performBlockingWork(for: .milliseconds(10)) }
                token.invalidate()
            }
        }
    }
}

/// A thumbnail renderer whose colour palette is a `lazy var`, first used by a render on a global
/// queue and by a preview on main, with no lock: both may initialize it (a race on the lazy
/// storage, which Swift names `$__lazy_storage_$_palette`).
final class ThumbnailPalette: Workload, @unchecked Sendable {
    lazy var palette: [Int] = [0x10, 0x20, 0x30]
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground { [self] in
            let token = BackgroundTaskToken(name: "render", host: app) {}
            DispatchQueue.global().async { [self] in
                app.performBlockingWork(for: .milliseconds(200))
                if palette.isEmpty { app.performBlockingWork(for: .milliseconds(1)) }
            }
            DispatchQueue.main.asyncAfter(deadline: .now() + 1) { [self] in
                if palette.count > 3 { app.performBlockingWork(for: .milliseconds(1)) }
                token.invalidate()
            }
        }
    }
}

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

extension PlainStateRaceTests {
    @Test("a semaphore's signal or a group's leave orders the write before the waiter's read; without them it races",
          arguments: [HandOverByWaiting.Waiting.semaphore, .group, .nothing])
    func waitsOrderAccesses(_ waiting: HandOverByWaiting.Waiting) {
        for seed in 1...6 as ClosedRange<UInt64> {
            let outcome = Self.run("wait", seed: seed) { HandOverByWaiting(waiting: waiting) }
            if waiting == .nothing {
                #expect(!Self.races(outcome).isEmpty, "seed \(seed): no race without the wait")
            } else {
                #expect(outcome.violations.isEmpty, "seed \(seed): \(outcome.violations.map(\.message))")
            }
            #expect(Self.others(outcome).isEmpty, "seed \(seed): \(Self.others(outcome))")
        }
    }

    @Test("objects made and freed on different queues are new state at a reused address, never a race")
    func freedObjectsAreNewState() {
        for seed in 1...8 as ClosedRange<UInt64> {
            let outcome = Self.run("churn", seed: seed) { ChurnsObjects() }
            #expect(outcome.violations.isEmpty, "seed \(seed): \(outcome.violations.map(\.message))")
        }
    }

    @Test("an actor's state and @MainActor state touched from many tasks are never reported",
          arguments: [1, 2, 3] as [UInt64])
    func actorStateIsNotReported(seed: UInt64) {
        let outcome = RealDispatchTests.run("actors", seed: seed, usesAsync: true) { CountsInActors() }
        #expect(outcome.violations.isEmpty, "\(outcome.violations.map(\.message))")
    }

    @Test("a race replays to the same trace and report after other runs have churned the heap")
    func raceReplaysAfterOtherRuns() {
        let first = Self.run("flag", seed: 5) { DoneFlagUpload(guarding: .nothing) }
        for seed in 1...20 as ClosedRange<UInt64> { _ = Self.run("churn", seed: seed) { ChurnsObjects() } }
        let again = Self.run("flag", seed: 5) { DoneFlagUpload(guarding: .nothing) }
        #expect(!Self.races(first).isEmpty)
        #expect(first.digest == again.digest)
        #expect(first.violations.map(\.message) == again.violations.map(\.message))
    }
}

/// A worker writes a result and hands it over by signalling a semaphore or leaving a group;
/// another global block waits and reads it.
final class HandOverByWaiting: Workload, @unchecked Sendable {
    enum Waiting: String, Sendable, CustomTestStringConvertible {
        case semaphore, group, nothing
        var testDescription: String { rawValue }
    }

    /// One hand-over per background entry (each entry has its own).
    final class Upload: @unchecked Sendable { var result = 0 }

    let waiting: Waiting
    private var observation: LifecycleObservation?

    init(waiting: Waiting) { self.waiting = waiting }

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground { [self] in
            let token = BackgroundTaskToken(name: "hand-over", host: app) {}
            let upload = Upload()
            let ready = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            if waiting == .group { group.enter() }
            DispatchQueue.global().async { [waiting] in
                app.performBlockingWork(for: .milliseconds(100))
                upload.result = 42
                switch waiting {
                case .semaphore: ready.signal()
                case .group: group.leave()
                case .nothing: break
                }
            }
            DispatchQueue.global().async { [waiting] in
                switch waiting {
                case .semaphore: ready.wait()
                case .group: group.wait()
                case .nothing: app.performBlockingWork(for: .milliseconds(300))
                }
                if upload.result != 42 { app.performBlockingWork(for: .milliseconds(1)) }
                DispatchQueue.main.async { token.invalidate() }
            }
        }
    }
}

/// Makes short-lived objects on main and on a global queue, each touched only by its maker.
final class ChurnsObjects: Workload, @unchecked Sendable {
    final class Draft { var words = 0 }
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.onDidEnterBackground {
            for round in 0..<20 {
                let queue = round.isMultiple(of: 2) ? DispatchQueue.main : DispatchQueue.global()
                queue.async {
                    let draft = Draft()
                    draft.words += round
                    if draft.words > 100 { draft.words = 0 }
                }
            }
        }
    }
}

/// An actor and an `@MainActor` model, each counted from several tasks.
final class CountsInActors: Workload, @unchecked Sendable {
    actor Tally {
        var uploads = 0
        func add() { uploads += 1 }
    }

    @MainActor final class Model {
        var shown = 0
    }

    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let tally = Tally()
        let model = Model()
        let app = context.application
        observation = context.onDidEnterBackground {
            let token = BackgroundTaskToken(name: "tally", host: app) {}
            for _ in 0..<4 {
                Task.detached {
                    await tally.add()
                    await MainActor.run { model.shown += 1 }
                }
            }
            Task { @MainActor in
                try? await Task.sleep(for: .seconds(2))
                model.shown += 1
                token.invalidate()
            }
        }
    }
}
