import BackgroundTaskKit
import DeterministicSimulation

/// A photo app's import, finished in the background with structured concurrency: on leaving
/// the foreground it takes a background task token and starts a `Task` that renders the
/// imported photos' thumbnails in a task group, several at a time, and awaits them all before
/// the token is invalidated. The token's expiration handler cancels the `Task`, which cancels
/// every child at once.
///
/// Expected: passes every invariant.
final class PhotoImport: Workload, @unchecked Sendable {
    // @unchecked: the observation is touched on the simulated main queue only.
    private var observation: LifecycleObservation?
    /// How the import renders its thumbnails (the planted bug swaps it).
    let renderThumbnails: @Sendable (Int, WorkloadContext) async throws -> Void

    init(renderThumbnails: @escaping @Sendable (Int, WorkloadContext) async throws -> Void = PhotoImport.renderAll) {
        self.renderThumbnails = renderThumbnails
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let render = renderThumbnails
        observation = context.onDidEnterBackground {
            let photos = context.drawInt(in: 1...6)
            let importing = TaskHandle()
            let token = BackgroundTaskToken(name: "import-photos", host: context.application) {
                importing.cancel()
            }
            importing.task = Task(executorPreference: context.taskExecutor) {
                defer { token.invalidate() }
                try? await AsyncWork.perform("copy-originals", context)
                try? await render(photos, context)
            }
        }
    }

    /// Renders every thumbnail in a task group and returns when all are done.
    @Sendable static func renderAll(_ photos: Int, _ context: WorkloadContext) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for photo in 1...photos {
                group.addTask { try await AsyncWork.perform("thumbnail-\(photo)", context) }
            }
            try await group.waitForAll()
        }
    }
}

/// The photo import with fire-and-forget thumbnails: to "return faster", each thumbnail is
/// rendered in its own unstructured `Task` that nobody awaits. The import returns at once, the
/// token is invalidated, and the thumbnails go on rendering in the background with nothing
/// holding the app awake; expiry cannot cancel them either.
///
/// Expected: `background-work-held`.
enum PhotoImportUnawaitedThumbnails {
    static func make() -> PhotoImport {
        PhotoImport { photos, context in
            for photo in 1...photos {
                Task(executorPreference: context.taskExecutor) {  // the bug: not awaited, not cancelled
                    try? await AsyncWork.perform("thumbnail-\(photo)", context)
                }
            }
        }
    }
}
