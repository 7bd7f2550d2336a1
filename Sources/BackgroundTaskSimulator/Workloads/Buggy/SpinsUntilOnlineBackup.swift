import BackgroundTaskKit

/// The background backup whose retry path waits for a change in reachability by polling it in
/// a loop on its queue (`while isNetworkAvailable == wasOnline {}`), as a quick fix for "retry
/// when the network comes back" does. On a device the loop burns the CPU until the network
/// changes or the watchdog kills the app; in the simulator nothing else can run while the loop
/// holds its thread, so nothing can change: on the rare path where the server asks for a retry
/// (1 backup in 500), the run never ends (an endless loop in workload code).
///
/// Expected: `no-hang`, found by isolated runs that kill a run over the run timeout (its
/// scenario sets `campaign.runTimeoutSeconds` to 2 s, far above the milliseconds a run takes);
/// in process the watchdog prints the run and ends bgsim with exit 124. The correct counterpart
/// is `backup/correct` (``NetworkCheckedBackup``: offline, it stops and ends its task).
final class SpinsUntilOnlineBackup: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time.
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        let app = context.application
        observation = context.onDidEnterBackground {
            let work = context.startWork("backup")
            BackgroundTaskToken.runUntilDone(name: "backup", host: app, onExpiration: { work.cancel() }) { done in
                app.backgroundQueue.asyncAfter(context.drawWorkDuration()) {
                    if context.draw(probability: 0.002) {  // the server answers "retry when reachability changes"
                        let wasOnline = context.isNetworkAvailable
                        while context.isNetworkAvailable == wasOnline {}  // the bug: waits by spinning
                    }
                    if !work.isDone { work.finish() }
                    done()
                }
            }
        }
    }
}
