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
    /// How the save's `Task` is started (the planted bug swaps it).
    typealias StartTask = @Sendable (WorkloadContext, @escaping @Sendable () async -> Void) -> Task<Void, Never>
    let startTask: StartTask

    init(startTask: @escaping StartTask = AsyncDraftSaver.startOnTaskExecutor) {
        self.startTask = startTask
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let startTask = startTask
        observation = context.onDidEnterBackground {
            let save = TaskHandle()
            let token = BackgroundTaskToken(name: "save-draft", host: context.application) { save.cancel() }
            save.task = startTask(context) {
                try? await AsyncWork.perform("save-draft", context)
                token.invalidate()
            }
        }
    }

    /// Where an app writes `Task { … }`: the process's task executor keeps every job simulated.
    @Sendable static func startOnTaskExecutor(_ context: WorkloadContext, _ body: @escaping @Sendable () async -> Void)
        -> Task<Void, Never>
    {
        Task(executorPreference: context.taskExecutor) { await body() }
    }
}

/// The async draft saver started with a plain `Task { … }`, as an app writes it. Inside a run
/// the process's executors (DeterministicSimulation's `ProcessExecutors`) take its jobs to the
/// run's tasks queue, as the global concurrent pool takes them on a device. (Before those
/// executors this was the planted `no-async-escape`.)
///
/// Expected: passes every invariant.
enum AsyncDraftSaverPlainTask {
    static func make() -> AsyncDraftSaver {
        AsyncDraftSaver { _, body in
            Task { await body() }
        }
    }
}
