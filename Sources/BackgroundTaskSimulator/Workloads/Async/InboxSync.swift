import BackgroundTaskKit
import DeterministicSimulation

/// A messaging app's inbox sync, finished in the background with structured concurrency: on
/// leaving the foreground it takes a background task token and starts a `Task` that fetches the
/// new messages and the contacts they mention at the same time (`async let`), then downloads the
/// messages' attachments in a task group (`withTaskGroup`), awaiting every child before the token
/// is invalidated. The token's expiration handler cancels the `Task`, which cancels both `async
/// let` children and every attachment at once; each child stops on cancellation.
///
/// Expected: passes every invariant.
final class InboxSync: Workload, @unchecked Sendable {
    // @unchecked: the observation is touched on the simulated main queue only.
    private var observation: LifecycleObservation?
    /// How the sync fetches the contacts (the planted bug swaps it); returns how many changed.
    let fetchContacts: @Sendable (WorkloadContext) async throws -> Int

    init(fetchContacts: @escaping @Sendable (WorkloadContext) async throws -> Int = InboxSync.fetchContacts) {
        self.fetchContacts = fetchContacts
    }

    func didFinishLaunching(_ context: WorkloadContext) {
        let fetchContacts = fetchContacts
        observation = context.onDidEnterBackground {
            let sync = TaskHandle()
            let token = BackgroundTaskToken(name: "sync-inbox", host: context.application) { sync.cancel() }
            sync.task = Task(executorPreference: context.taskExecutor) {
                defer { token.invalidate() }
                try? await Self.sync(context, fetchContacts: fetchContacts)
            }
        }
    }

    /// Both fetches at once, then the attachments; returns when every child has.
    static func sync(
        _ context: WorkloadContext, fetchContacts: @Sendable (WorkloadContext) async throws -> Int
    ) async throws {
        async let messages = fetchMessages(context)
        async let contacts = fetchContacts(context)
        // A throw here (offline, cancelled) cancels the other child and waits for it: `async let`
        // never outlives its scope, so the token covers it only if it stops when cancelled.
        let (attachments, _) = try await (messages, contacts)
        await withTaskGroup(of: Void.self) { group in
            for attachment in 0..<attachments {
                group.addTask { try? await AsyncWork.perform("attachment-\(attachment + 1)", context) }
            }
        }
    }

    /// The new messages; returns how many attachments they have.
    static func fetchMessages(_ context: WorkloadContext) async throws -> Int {
        try await AsyncWork.perform("fetch-messages", context, needsNetwork: true)
        return context.drawInt(in: 0...3)
    }

    /// The contacts, fetched the cancellation-aware way.
    @Sendable static func fetchContacts(_ context: WorkloadContext) async throws -> Int {
        try await AsyncWork.perform("fetch-contacts", context, needsNetwork: true)
        return 1
    }
}

/// The inbox sync whose contacts child awaits the contacts SDK's callback API through a plain
/// continuation: the request cannot be cancelled and the child never looks at cancellation. On
/// expiry the token ends the background task and the `Task` is cancelled, but the `async let`
/// scope must wait for the contacts child, whose request runs on with no background task held.
///
/// Expected: `background-work-held`.
enum InboxSyncChildIgnoringCancellation {
    static func make() -> InboxSync {
        InboxSync { context in
            let client = CallbackClient(context, work: "fetch-contacts")
            let ok = await withCheckedContinuation { continuation in  // the bug: deaf to cancellation
                client.fetch { continuation.resume(returning: $0) }
            }
            guard ok else { throw AsyncWork.URLErrorLike.notConnected }
            return 1
        }
    }
}
