import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// A watchdog kill of a main thread that blocked in a system-watched callback names what main
/// waited for and the blocks queued on main behind it. The classic case: a callback API made
/// synchronous with a `DispatchSemaphore`, waited on main, whose completion is delivered on the
/// main queue. The kill was right, but its message said only "applicationDidEnterBackground
/// still running after 5 s" (found by a probe of app code).
@Suite(.enabled(if: Scheduler.tracksPlainLocks && VirtualClocks.isSupported))
struct BlockedMainWatchdogTests {
    @Test("a semaphore waited on main for a main-queue completion: the kill names the semaphore and the block behind it")
    func killNamesTheWait() throws {
        let info = WorkloadInfo(name: "flag-sync", summary: "waits on main for a completion on main") { SynchronousFlagSync() }
        let report = WorkloadCampaign(workload: info, runs: 30, seed: Seed(0x5e4a)).run()
        let kill = try #require(report.failures.first { $0.invariant == "every-begin-ended" || $0.invariant == "no-watchdog-kill" },
                                "\(report)")
        #expect(kill.message.contains("applicationDidEnterBackground still running"), "\(kill.message)")
        #expect(kill.message.contains("the main thread was blocked waiting for DispatchSemaphore"), "\(kill.message)")
        #expect(kill.message.contains("with 1 block waiting on the main queue behind it"), "\(kill.message)")
    }
}

/// Reads a server flag before going to sleep: a completion-handler API made synchronous with a
/// semaphore, in `applicationDidEnterBackground`, under a background task. The API delivers its
/// completion on the main queue, which the waiting main thread never gets back to.
private final class SynchronousFlagSync: Workload, @unchecked Sendable {
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = app.addLifecycleObserver { event in
            guard event == .didEnterBackground else { return }
            let token = BackgroundTaskToken(name: "flag-sync", host: app)
            let done = DispatchSemaphore(value: 0)
            Self.fetchFlag { _ in done.signal() }
            done.wait()
            token.invalidate()
        }
    }

    /// The callback API: answers on the main queue after a moment on a global one.
    private static func fetchFlag(completion: @escaping @Sendable (Bool) -> Void) {
        DispatchQueue.global().async {
            DispatchQueue.main.async { completion(true) }
        }
    }
}
