import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Code written the way apps write it, outside the catalog and never shaped for the harness
/// (first written as a probe of the harness from a user's package, 2026-11-30): each planted
/// bug is found and its correct twin holds every invariant. The harness is judged on bugs like
/// these; a change that stops finding one, or starts blaming a twin, fails here.
@Suite("App-style twins")
struct AppStyleTwinTests {
    /// The invariants a campaign of `make` violated (empty: it passed).
    static func violated(_ name: String, info: (String) -> WorkloadInfo, runs: Int = 300) -> [String] {
        let report = WorkloadCampaign(workload: info(name), runs: runs, seed: Seed(0xa995_7e1e)).run()
        return report.failures.map(\.invariant)
    }

    @Test("an @MainActor sync engine that ends 'the current' stored task id from its Task is found; one id per entry holds")
    func syncEngine() {
        let make = { (buggy: Bool) in { (name: String) in
            WorkloadInfo(name: name, summary: "syncs on background entry", usesAsync: true) { SyncEngine(buggy: buggy) }
        } }
        #expect(Self.violated("sync-engine/correct", info: make(false)).isEmpty)
        #expect(Self.violated("sync-engine/stored-id", info: make(true)).contains("every-begin-ended"))
    }

    @Test("a silent push whose sync races a deadline in a task group holds; a deadline timer beside the sync calls the handler twice")
    func mailPush() {
        let make = { (buggy: Bool) in { (name: String) in
            WorkloadInfo(name: name, summary: "syncs mail on a silent push", backgroundModes: ["remote-notification"],
                         usesAsync: true) { MailPush(buggy: buggy) }
        } }
        #expect(Self.violated("mail-push/correct", info: make(false)).isEmpty)
        #expect(Self.violated("mail-push/deadline-timer", info: make(true)).contains("push-completion-called-once"))
    }

    @Test("a background session's completion handler called on main after its events holds; called on the delegate's queue, found")
    func photoBackup() {
        let make = { (buggy: Bool) in { (name: String) in
            WorkloadInfo(name: name, summary: "backs photos up in a background session",
                         usesBackgroundURLSession: true) { PhotoBackup(callsOffMain: buggy) }
        } }
        #expect(Self.violated("photo-backup/correct", info: make(false)).isEmpty)
        #expect(Self.violated("photo-backup/off-main", info: make(true), runs: 400)
            .contains("background-session-completion-called-once"))
    }
}

/// Syncs on every background entry in a `Task`, its task id in a main-actor property. The bug:
/// the `Task` ends "the current" id, so a second entry before the first sync ends overwrites
/// the first id (P1, in async clothing). The twin keeps one id per entry and ends it once,
/// from the `Task` or from the expiration handler, which cancels the sync.
@MainActor
private final class SyncEngine: Workload {
    let buggy: Bool
    var taskID = BackgroundTaskIdentifier.invalid
    var observation: LifecycleObservation?
    init(buggy: Bool) { self.buggy = buggy }

    func didFinishLaunching(_ context: WorkloadContext) {
        let host = context.application
        observation = host.addLifecycleObserver { [weak self] event in
            guard event == .didEnterBackground, let self else { return }
            if buggy { startSharingTheID(context, host) } else { startWithItsOwnID(context, host) }
        }
    }

    private func startSharingTheID(_ context: WorkloadContext, _ host: SimulatedApplication) {
        taskID = host.beginBackgroundTask(withName: "sync") { [weak self] in
            guard let self, taskID != .invalid else { return }
            host.endBackgroundTask(taskID)
            taskID = .invalid
        }
        Task { @MainActor in
            let work = context.startWork("sync")
            try? await Task.sleep(for: context.drawWorkDuration())
            work.finish()
            if self.taskID != .invalid {
                host.endBackgroundTask(self.taskID)
                self.taskID = .invalid
            }
        }
    }

    private func startWithItsOwnID(_ context: WorkloadContext, _ host: SimulatedApplication) {
        let entry = SyncEntry()
        let work = context.startWork("sync")
        let sync = Task { @MainActor in
            try? await Task.sleep(for: context.drawWorkDuration())
            if !work.isDone { work.finish() }
            entry.end(host)
        }
        entry.id = host.beginBackgroundTask(withName: "sync") {
            sync.cancel()
            if !work.isDone { work.cancel() }
            entry.end(host)
        }
    }
}

/// One background entry's task id, ended once (main actor only).
@MainActor
private final class SyncEntry {
    var id = BackgroundTaskIdentifier.invalid
    func end(_ host: any BackgroundTaskHost) {
        guard id != .invalid else { return }
        host.endBackgroundTask(id)
        id = .invalid
    }
}

/// A silent push starts a `Task` that syncs mail (1-40 s) and calls the fetch completion
/// handler. The twin races the sync against a 25 s deadline in a task group: one call, in time.
/// The bug: a 25 s timer calls the handler as failed, and the sync's end calls it again.
private final class MailPush: Workload, @unchecked Sendable {
    let buggy: Bool
    init(buggy: Bool) { self.buggy = buggy }

    func didFinishLaunching(_ context: WorkloadContext) {
        let buggy = buggy
        context.onRemoteNotification { _, completion in
            Task {
                let work = context.startWork("sync-mail")
                if buggy {
                    context.application.mainQueue.asyncAfter(.seconds(25)) { completion(.failed) }
                    do {
                        try await Task.sleep(for: context.drawDuration(in: .seconds(1) ... .seconds(40)))
                        work.finish()
                    } catch {
                        work.cancel()
                    }
                    completion(.newData)
                    return
                }
                let synced = await withTaskGroup(of: Bool.self) { group in
                    group.addTask {
                        do {
                            try await Task.sleep(for: context.drawDuration(in: .seconds(1) ... .seconds(40)))
                            return true
                        } catch {
                            return false
                        }
                    }
                    group.addTask {
                        try? await Task.sleep(for: .seconds(25))
                        return false
                    }
                    let first = await group.next() ?? false
                    group.cancelAll()
                    return first
                }
                if synced { work.finish() } else { work.cancel() }
                completion(synced ? .newData : .failed)
            }
        }
    }
}

/// Uploads photos through a background `URLSession`. The app delegate keeps the completion
/// handler of each wake on the main actor; the session's delegate, on its own queue, hops to
/// main after its events and calls it there. The bug: it fetches the handler from main and calls
/// it on the delegate's queue.
private final class PhotoBackup: Workload, @unchecked Sendable {
    static let sessionID = "com.example.photos.backup"
    let callsOffMain: Bool
    var observation: LifecycleObservation?
    var taken = 0
    init(callsOffMain: Bool) { self.callsOffMain = callsOffMain }

    @MainActor final class Completions {
        var handlers: [String: @Sendable () -> Void] = [:]
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let completions = MainActor.assumeIsolated { Completions() }
        let callsOffMain = callsOffMain
        let main = context.application.mainQueue
        let session = context.backgroundURLSession(
            identifier: Self.sessionID, onTaskCompleted: { _, _ in },
            onFinishEvents: { _ in
                if callsOffMain {
                    let handler = main.sync {
                        MainActor.assumeIsolated { completions.handlers.removeValue(forKey: Self.sessionID) }
                    }
                    handler?()
                } else {
                    main.async {
                        MainActor.assumeIsolated { completions.handlers.removeValue(forKey: Self.sessionID)?() }
                    }
                }
            })
        context.onBackgroundURLSessionEvents { identifier, completion in
            MainActor.assumeIsolated { completions.handlers[identifier] = completion }
        }
        observation = context.onDidEnterBackground { [self] in
            for _ in 0..<context.drawInt(in: 0...2) {
                taken += 1
                _ = session.upload("IMG_\(taken).heic")
            }
        }
    }
}
