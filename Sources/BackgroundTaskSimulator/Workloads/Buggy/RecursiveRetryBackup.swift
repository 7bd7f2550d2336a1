import BackgroundTaskKit

/// The background backup whose upload "retries at once" when it finds the device offline, by
/// calling itself, the way a retry is often first written before anyone adds a delay or waits
/// for reachability. On a device the recursion eats the thread's stack in milliseconds (nothing
/// changes between calls) and the app dies with `EXC_BAD_ACCESS` on the stack guard page; in
/// the simulator it overflows the simulated thread's stack the same way: a SIGSEGV that the
/// crash handler (on its alternate signal stack) reports with the run's seed. It happens
/// whenever the network is down when a backup's upload starts (in most runs of half an hour).
///
/// Expected: `no-crash` (a stack overflow), found by isolated runs (`bgsim check`, `bgsim fuzz
/// --isolate`); in process the crash ends bgsim with exit 70 and the banner naming the run. The
/// correct counterpart is `backup/correct` (``NetworkCheckedBackup``: offline, it stops and ends
/// its task).
final class RecursiveRetryBackup: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time.
    private var observation: LifecycleObservation?
    /// Chunks that needed a retry, for the app's diagnostics.
    private var retriedChunks = 0

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground { [self] in
            let work = context.startWork("backup")
            BackgroundTaskToken.runUntilDone(name: "backup", host: app, onExpiration: { work.cancel() }) { done in
                app.backgroundQueue.asyncAfter(context.drawWorkDuration()) { [self] in
                    if upload(chunk: 1, attempt: 0, context), !work.isDone { work.finish() }
                    done()
                }
            }
        }
    }

    /// Uploads one chunk; whether it was sent.
    private func upload(chunk: Int, attempt: Int, _ context: WorkloadContext) -> Bool {
        guard context.isNetworkAvailable else {
            // The bug: retry at once, by recursion. Offline, nothing changes between the calls.
            let sent = upload(chunk: chunk, attempt: attempt + 1, context)
            if sent, attempt == 0 { retriedChunks += 1 }
            return sent
        }
        return true
    }
}
