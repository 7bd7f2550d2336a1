import Synchronization

/// A deterministic, thread-safe ``ApplicationHost`` for unit tests: yours and ours. Time and
/// the app's life move only when the test says so, and the host records every misuse a real
/// `UIApplication` would only log.
///
/// ```swift
/// @MainActor @Test func uploadsEndTheirTask() {    // the test plays the main thread
///     let app = FakeHost()
///     let uploads = BackgroundOperationQueue(name: "uploads", host: app)
///     uploads.addOperation { upload(photo) }
///     app.enterBackground()
///     app.runUntilIdle()                       // runs the queued work
///     #expect(app.openTasks.isEmpty)           // the queue ended its task
///     #expect(app.misuses.isEmpty)             // no double or unknown end
/// }
/// ```
///
/// Contract:
/// - Identifiers count up from 1 and are never reused (A2.5); ``deniesBegin`` makes `begin`
///   return `.invalid` (A2.1).
/// - The test plays the main thread: the lifecycle verbs and ``expire()`` are `@MainActor`, as
///   UIKit's callouts are (A3.1, ``ExpirationHandler``, ``LifecycleObserver``); call them from an
///   `@MainActor` test. The verbs deliver their notifications synchronously, in UIKit's order
///   (``LifecycleEvent``), and ``expire()`` calls the expiration handlers of all open tasks, in
///   begin order, then records every task its handler left open (``tasksLeftOpenByExpiry``, A3.6).
///   Begin, end and the checks stay callable from any thread (A1.4).
/// - Queued work runs only in ``runUntilIdle()`` and ``advance(by:)``, in (due time, enqueue
///   order) order, on the calling thread; the background queue is as deterministic as the main.
///   `sync` runs its work at once on the calling thread (``FakeWorkQueue``). Locks and
///   semaphores are real ones (a `Mutex`, a `DispatchSemaphore`), shared state is plain storage.
/// - Ending an unknown, ended or invalid identifier is recorded in ``misuses`` (A5.2), never
///   a trap. Handlers and work never run under the host's lock.
public final class FakeHost: ApplicationHost, Sendable {
    struct OpenTask {
        var id: Int
        var name: String
        var handler: ExpirationHandler?
    }

    struct State {
        var applicationState: ApplicationState
        var hasFinishedLaunching: Bool
        var deniesBegin = false
        var nextTaskID = 1
        var open: [OpenTask] = []
        var began = 0
        var ended = 0
        var denied = 0
        var misuses: [String] = []
        var leftOpenByExpiry: [BackgroundTaskIdentifier] = []
        var log: [String] = []
        var observers: [(key: Int, observer: LifecycleObserver)] = []
        var nextObserverKey = 0
        var now = Duration.zero
        var jobs: [Job] = []
        var nextJobSequence = 0
        var remaining: Double?
    }

    struct Job {
        var due: Duration
        var sequence: Int
        var work: @Sendable () -> Void
    }

    let state: Mutex<State>
    private let queues: Mutex<[FakeWorkQueue]> = Mutex([])

    /// A host in `applicationState`; `hasFinishedLaunching` true by default (most tests run
    /// after launch). Use ``finishLaunching()`` to model a launch.
    public init(applicationState: ApplicationState = .active, hasFinishedLaunching: Bool = true) {
        state = Mutex(State(applicationState: applicationState, hasFinishedLaunching: hasFinishedLaunching))
    }

    // MARK: BackgroundTaskHost

    public func beginBackgroundTask(
        withName name: String?, expirationHandler: ExpirationHandler?
    ) -> BackgroundTaskIdentifier {
        state.withCriticalSection { state in
            let name = name ?? "unnamed"
            guard !state.deniesBegin else {
                state.denied += 1
                state.log.append("denied \(name)")
                return .invalid
            }
            let id = state.nextTaskID
            state.nextTaskID += 1
            state.open.append(OpenTask(id: id, name: name, handler: expirationHandler))
            state.began += 1
            state.log.append("begin \(id) \(name)")
            return BackgroundTaskIdentifier(rawValue: id)
        }
    }

    /// Records a misuse a device would log or trap on (``misuses``).
    func recordMisuse(_ message: String) {
        state.withCriticalSection { $0.misuses.append(message) }
    }

    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        state.withCriticalSection { state in
            guard let index = state.open.firstIndex(where: { $0.id == identifier.rawValue }) else {
                state.misuses.append("Can't end BackgroundTask: no background task exists with identifier \(identifier)")
                state.log.append("bad-end \(identifier)")
                return
            }
            state.open.remove(at: index)
            state.ended += 1
            state.log.append("end \(identifier)")
        }
    }

    /// `Double.greatestFiniteMagnitude` unless set, as in the foreground (A8.3).
    public var backgroundTimeRemaining: Double {
        get { state.withCriticalSection { $0.remaining ?? .greatestFiniteMagnitude } }
        set { state.withCriticalSection { $0.remaining = newValue } }
    }

    public var applicationState: ApplicationState { state.withCriticalSection { $0.applicationState } }

    // MARK: LifecycleHost

    public func addLifecycleObserver(_ observer: @escaping LifecycleObserver) -> LifecycleObservation {
        let key = state.withCriticalSection { state in
            defer { state.nextObserverKey += 1 }
            state.observers.append((state.nextObserverKey, observer))
            return state.nextObserverKey
        }
        return LifecycleObservation { [weak self] in
            self?.state.withCriticalSection { $0.observers.removeAll { $0.key == key } }
        }
    }

    public var hasFinishedLaunching: Bool { state.withCriticalSection { $0.hasFinishedLaunching } }

    // MARK: ExecutionHost

    public var mainQueue: any WorkQueue { queue("main") }
    public var backgroundQueue: any WorkQueue { queue("background", isSerial: false) }

    public func makeSerialQueue(label: String) -> any WorkQueue { FakeWorkQueue(label: label, host: self) }

    private func queue(_ label: String, isSerial: Bool = true) -> FakeWorkQueue {
        queues.withCriticalSection { queues in
            if let found = queues.first(where: { $0.label == label }) { return found }
            let made = FakeWorkQueue(label: label, host: self, isSerial: isSerial)
            queues.append(made)
            return made
        }
    }

    // MARK: Verbs: the app's life

    /// Sets whether `beginBackgroundTask` refuses (returns `.invalid`, A2.1).
    public var deniesBegin: Bool {
        get { state.withCriticalSection { $0.deniesBegin } }
        set { state.withCriticalSection { $0.deniesBegin = newValue } }
    }

    /// `didFinishLaunching`; afterwards ``hasFinishedLaunching`` is true.
    @MainActor
    public func finishLaunching() {
        deliver(.didFinishLaunching)
        state.withCriticalSection { $0.hasFinishedLaunching = true }
        setState(.active, then: .didBecomeActive)
    }

    /// Home button: `willResignActive`, then `didEnterBackground` (B2.3).
    @MainActor
    public func enterBackground() {
        setState(.inactive, then: .willResignActive)
        setState(.background, then: .didEnterBackground)
    }

    /// Back to the app: `willEnterForeground`, then `didBecomeActive` (B2.4).
    @MainActor
    public func enterForeground() {
        setState(.inactive, then: .willEnterForeground)
        setState(.active, then: .didBecomeActive)
    }

    /// The system's expiry callout (A3.1, A3.5): every open task's handler, in begin order,
    /// on the main actor; then the tasks still open are recorded.
    ///
    /// - Returns: the identifiers whose handlers left them open (A3.6); empty when all is well.
    @MainActor
    @discardableResult
    public func expire() -> [BackgroundTaskIdentifier] {
        let callout = state.withCriticalSection { state in
            state.log.append("expire \(state.open.map { String($0.id) }.joined(separator: ","))")
            return state.open.map { ($0.id, $0.handler) }
        }
        for (_, handler) in callout { handler?() }
        return state.withCriticalSection { state in
            let left = callout.map(\.0).filter { id in state.open.contains { $0.id == id } }
                .map(BackgroundTaskIdentifier.init(rawValue:))
            state.leftOpenByExpiry += left
            return left
        }
    }

    @MainActor
    private func setState(_ new: ApplicationState, then event: LifecycleEvent) {
        state.withCriticalSection { $0.applicationState = new }
        deliver(event)
    }

    @MainActor
    private func deliver(_ event: LifecycleEvent) {
        let observers = state.withCriticalSection { state in
            state.log.append("event \(event)")
            return state.observers.map(\.observer)
        }
        for observer in observers { observer(event) }
    }

    // MARK: Checks

    /// Tasks begun and not ended, in begin order.
    public var openTasks: [BackgroundTaskIdentifier] {
        state.withCriticalSection { $0.open.map { BackgroundTaskIdentifier(rawValue: $0.id) } }
    }
    /// The names of the open tasks, in begin order.
    public var openTaskNames: [String] { state.withCriticalSection { $0.open.map(\.name) } }
    /// How many tasks were begun (denied begins not counted).
    public var beganCount: Int { state.withCriticalSection { $0.began } }
    /// How many tasks were ended (correctly).
    public var endedCount: Int { state.withCriticalSection { $0.ended } }
    /// How many begins were denied.
    public var deniedCount: Int { state.withCriticalSection { $0.denied } }
    /// Ends of unknown, ended or invalid identifiers, as UIKit's console would word them, and
    /// `sync` deadlocks, as libdispatch words them (``FakeWorkQueue``).
    public var misuses: [String] { state.withCriticalSection { $0.misuses } }
    /// Tasks still open when their expiration handler returned, over all ``expire()`` calls.
    public var tasksLeftOpenByExpiry: [BackgroundTaskIdentifier] { state.withCriticalSection { $0.leftOpenByExpiry } }
    /// Everything that happened, one line each ("begin 1 uploads", "end 1", "expire 1",
    /// "bad-end 3", "event didEnterBackground", "denied uploads").
    public var log: [String] { state.withCriticalSection { $0.log } }
}
