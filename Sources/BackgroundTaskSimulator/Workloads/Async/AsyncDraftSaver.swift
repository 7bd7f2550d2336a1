import BackgroundTaskKit
import DeterministicSimulation

/// The token pattern with async/await: each save on leaving the foreground holds its own
/// ``BackgroundTaskToken`` (taken on the main thread) and runs in a `Task` on the process's
/// clock; the token's expiration handler cancels the `Task`, and the token is invalidated when
/// the save returns (idempotent after an expiry). The async counterpart of `token/correct`, and
/// the benchmark's async row.
///
/// Expected: passes every invariant.
final class AsyncDraftSaver: Workload, @unchecked Sendable {
    // @unchecked: the observation is touched on the simulated main queue only.
    private var observation: LifecycleObservation?

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.onDidEnterBackground {
            let save = TaskHandle()
            let token = BackgroundTaskToken(name: "save-draft", host: context.application) { save.cancel() }
            save.task = Task(executorPreference: context.taskExecutor) {
                try? await AsyncWork.perform("save-draft", context)
                token.invalidate()
            }
        }
    }
}
