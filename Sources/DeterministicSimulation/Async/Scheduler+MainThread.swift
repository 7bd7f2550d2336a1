/// The simulated main thread as the real main actor sees it: which queue of the run is the main
/// thread, and how a simulated OS calls back what the SDK declares `@MainActor` (an expiration
/// handler, an app-delegate callback) on it.
extension Scheduler {
    /// Names `queue` the run's simulated main thread from now on, so that Swift's isolation
    /// checks (`MainActor.assumeIsolated`, an `@MainActor` callback) pass in its jobs. A
    /// simulator calls it for each process it launches, whether or not the run uses Swift
    /// concurrency; ``enableAsync(taskWidth:mainQueue:)`` and
    /// ``beginAsyncDomain(label:taskWidth:mainQueue:)`` name their main queue too.
    ///
    /// ```swift
    /// let main = scheduler.makeQueue(label: "p1.main", kind: .serial)
    /// scheduler.setMainThread(main)
    /// ```
    ///
    /// - Precondition: `queue` was made by this scheduler.
    public func setMainThread(_ queue: QueueID) {
        asyncStateMakingIfNeeded.mainThreadQueue = queue
    }

    /// Whether the calling thread runs a job of this run's simulated main thread (the queue
    /// ``setMainThread(_:)`` named last): what `MainActor.assumeIsolated` asks inside a run.
    @usableFromInline
    package var isOnSimulatedMainThread: Bool {
        // No local binding of the state: it cost a retain and a release per check.
        guard let queue = asyncState?.mainThreadQueue, RunThreadMarker.isMarked(self) else { return false }
        return runningQueue == queue || (asyncState?.mainInPlaceDepth ?? 0) > 0
    }

    /// Runs `body`, a block for the main queue that the run could not carry to the simulated main
    /// thread and runs in place instead, as the main thread: ``isOnSimulatedMainThread`` is true
    /// meanwhile, so main-actor checks in it pass.
    ///
    /// ```swift
    /// // A `DispatchQueue.main.sync` whose caller the run's end unwinds: the block runs here.
    /// scheduler.runInPlaceOfMainThread { call.runNow() }
    /// ```
    ///
    /// Why: Swift 6 isolates the closure of `DispatchQueue.main.sync` to the main actor and checks
    /// that on entry. A `sync` that cannot reach the main thread (a deadlock stopped the run and
    /// its threads are unwound, or the run has no threads) still runs its block, because Swift's
    /// value-returning `sync` force-unwraps what the block set; on the caller's thread that
    /// check trapped and ended the process with the finding unreported. Nothing a block does at
    /// teardown is recorded.
    package func runInPlaceOfMainThread<T>(_ body: () throws -> T) rethrows -> T {
        guard let state = asyncState else { return try body() }
        state.mainInPlaceDepth += 1
        defer { state.mainInPlaceDepth -= 1 }
        return try body()
    }

    /// Calls `callback`, which the SDK declares `@MainActor`, from a job of the simulated main
    /// thread, and returns its result: how the simulated `UIApplication` calls expiration
    /// handlers (A3.1) and lifecycle observers, so that app code with an `@MainActor` model reads
    /// as it does against UIKit, and how a workload makes that model at launch.
    ///
    /// ```swift
    /// let handler: @MainActor @Sendable () -> Void = task.handler
    /// scheduler.callOnMainActor("the expiration handler of task 3") { handler() }
    /// ```
    ///
    /// Contract:
    /// - The engine checks that this job runs on the simulated main thread
    ///   (``isOnSimulatedMainThread``) and then calls `callback` with its `@MainActor` attribute
    ///   dropped: the same check and cast as `MainActor.assumeIsolated`, without the runtime's
    ///   round trip through the main executor and without an allocation (together 7% of a
    ///   one-thread token campaign's instructions; the Performance article).
    /// - With the process's executors (``ProcessExecutors/isInstalled``) the runtime's main
    ///   executor answers that same question, so inside `callback`, `MainActor.assumeIsolated`,
    ///   `@MainActor` calls and `Task {}` (inheriting the main actor) all belong to the run. Debug
    ///   builds assert that the runtime agrees with the engine's check at every call.
    /// - With `BGSIM_PROCESS_EXECUTORS=off` (the fallback) the runtime's main actor is the real
    ///   main thread, which a run's job is not: `callback`'s synchronous code runs, a
    ///   `MainActor.assumeIsolated` inside it traps as it would off the main thread, and a hop to
    ///   the main actor is reported as an escape (`no-async-escape`).
    /// - Anywhere but a job of the simulated main thread (another queue, a thread outside every
    ///   run) it traps with a message naming `what`: a simulator that calls a main-thread
    ///   callback elsewhere has a bug, and running it would misjudge the app.
    ///
    /// Inlinable, so that each caller gets it specialized for its callback's result (the cast
    /// invoker then needs no generic context at run time).
    @inlinable @discardableResult
    public func callOnMainActor<T: Sendable>(_ what: @autoclosure () -> String, _ callback: @MainActor () -> T) -> T {
        guard isOnSimulatedMainThread else { trapOffMainThread(what()) }
        assert(Self.runtimeAgreesOnMainThread())
        // The check above is what makes this call the main thread's; the cast only drops the
        // attribute, as `MainActor.assumeIsolated` does after asking the runtime the same question.
        // It drops it from a caller that captures nothing rather than from `callback` itself:
        // making `callback` escaping for the cast (`withoutActuallyEscaping`) allocated a context
        // per call.
        let invoke: @MainActor (@MainActor () -> T) -> T = { body in body() }
        return unsafeBitCast(invoke, to: ((@MainActor () -> T) -> T).self)(callback)
    }

    /// Stops the process: `what` was called off the simulated main thread.
    @usableFromInline
    func trapOffMainThread(_ what: String) -> Never {
        fatalError(Self.offMainThread(what, queue: runningPlace))  // printed in release builds too
    }

    /// Whether the runtime's main executor, when it is the process's, also says the calling
    /// thread is the main actor's (it traps otherwise): ``callOnMainActor(_:_:)``'s debug check.
    @usableFromInline
    static func runtimeAgreesOnMainThread() -> Bool {
        if ProcessExecutors.isInstalled { MainActor.assumeIsolated {} }
        return true
    }

    /// The trap message of a main-actor callout made off the simulated main thread.
    static func offMainThread(_ what: String, queue: String?) -> String {
        "\(what) is @MainActor (as the iOS SDK declares it) and must be called on the run's simulated main thread, "
            + "but was called \(queue.map { "on simulated queue '\($0)'" } ?? "outside any job of this run"): "
            + "call it from a job of the queue Scheduler.setMainThread(_:) named"
    }
}
