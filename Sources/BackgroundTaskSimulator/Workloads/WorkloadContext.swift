public import BackgroundTaskKit
public import DeterministicSimulation

/// What a workload instance gets from the simulated iOS: its process's hosts, the network, work
/// durations drawn from the run's choices, and work items that let the harness see whether work
/// was protected by a background task.
///
/// ```swift
/// let work = context.startWork("upload")
/// context.application.backgroundQueue.asyncAfter(context.drawWorkDuration()) { work.finish() }
/// ```
public final class WorkloadContext: @unchecked Sendable {
    // @unchecked: one simulated thread of the run touches it at a time.
    /// The process's `UIApplication`: background tasks, state, lifecycle, queues.
    public let application: SimulatedApplication
    /// The process's `BGTaskScheduler`.
    public let taskScheduler: SimulatedTaskScheduler

    init(application: SimulatedApplication) {
        self.application = application
        self.taskScheduler = SimulatedTaskScheduler(application: application)
    }

    private var device: SimulatedDevice { application.device }

    /// The app host as BackgroundTaskKit sees it.
    public var host: any ApplicationHost { application }

    /// Whether the network is reachable now (the environment turns it off and on).
    public var isNetworkAvailable: Bool { device.isNetworkAvailable }

    /// How long one piece of work takes, drawn from the scenario's work-duration range.
    public func drawWorkDuration() -> Duration {
        let timing = device.environment.work
        return device.choices.duration(in: timing.minimum...timing.maximum).duration
    }

    /// A duration drawn from `range` (log-uniform by decade, so short and long both occur).
    public func drawDuration(in range: ClosedRange<Duration>) -> Duration {
        device.choices.duration(in: VirtualDuration(range.lowerBound)...VirtualDuration(range.upperBound)).duration
    }

    /// A yes/no decision with probability `probability`, drawn from the run's choices.
    public func draw(probability: Double) -> Bool {
        device.choices.bool(probability: probability)
    }

    /// An integer in `range`, drawn from the run's choices.
    public func drawInt(in range: ClosedRange<Int>) -> Int {
        device.choices.int(in: range)
    }

    /// Calls `body` on every `didEnterBackground` of this process, until the observation is
    /// released: the entry point of most background-work patterns. `body` is called from the
    /// observer (on the main actor, ``LifecycleObserver``) but is not itself main-actor
    /// isolated, so a `Task {}` it starts is a plain task; an `@MainActor` app object observes
    /// with `application.addLifecycleObserver` instead, as it would against UIKit.
    ///
    /// ```swift
    /// observation = context.onDidEnterBackground { save(context) }
    /// ```
    public func onDidEnterBackground(_ body: @escaping @Sendable () -> Void) -> LifecycleObservation {
        application.addLifecycleObserver { event in
            if event == .didEnterBackground { body() }
        }
    }

    /// Declares a piece of work that must not be cut short by suspension: the harness checks
    /// that something holds the app awake while it is in flight in the background.
    public func startWork(_ name: String) -> WorkItem {
        device.scheduler.schedulingPoint()
        // A dead process's code, run inertly to free what it holds (`Scheduler.releaseDeadQueues`),
        // starts no work that counts: no id taken, nothing recorded.
        let id = device.makeWorkID()
        device.emit(.workStarted(id: id, name: name))
        return WorkItem(id: id, name: name, device: device)
    }

    /// Marks a rare path of the workload as reached, like FoundationDB's `CODE_PROBE`: the run's
    /// trace gets a `probe` event, and the campaign's coverage (summary, JSON report) counts how
    /// many times each probe was hit. A scenario can require probes (`"requiredProbes"`): the
    /// campaign then fails its expectation when one is never hit, because the exploration did not
    /// reach the code it was meant to test.
    ///
    /// ```swift
    /// if error == .networkConnectionLost, task.isRunning {
    ///     context.probe("retry-after-connection-lost")
    ///     retry()
    /// }
    /// ```
    ///
    /// Contract: a probe is an observation, not a decision: it draws nothing and changes no
    /// behaviour, only the trace (one event) and the coverage. Name it in kebab-case.
    public func probe(_ name: String) {
        device.emit(.probe(name))
    }

    // MARK: Swift concurrency

    /// The executor to start this process's tasks on: write
    /// `Task(executorPreference: context.taskExecutor) { … }` where an app writes `Task { … }`.
    /// Child tasks (`async let`, task groups) inherit it; each job of the task then runs on the
    /// process's simulated threads, in an order drawn from the run's choices.
    ///
    /// ```swift
    /// observation = context.onDidEnterBackground {
    ///     Task(executorPreference: context.taskExecutor) { await outbox.send() }
    /// }
    /// ```
    ///
    /// Contract: the workload's ``WorkloadInfo/usesAsync`` is true (traps otherwise). A task
    /// started without the preference (`Task {}`, `Task.detached`) is an escape: the run fails
    /// with `no-async-escape`. The process's tasks stop while it is suspended and never run
    /// again once it is gone.
    public var taskExecutor: SimulationTaskExecutor { asyncDomain.executor }

    /// The process's virtual `Clock`: `try await context.clock.sleep(for: .seconds(2))` parks
    /// the task on virtual time; cancelling the task wakes it with `CancellationError`.
    ///
    /// ```swift
    /// func backoff(attempt: Int, clock: some Clock<Duration>) async throws {
    ///     try await clock.sleep(for: .seconds(1 << attempt))
    /// }
    /// try await backoff(attempt: 2, clock: context.clock)
    /// ```
    ///
    /// Contract: as ``taskExecutor``; sleeping is never a real wait (use it, never `Task.sleep`).
    public var clock: SimulationClock { asyncDomain.clock }

    /// `withTaskCancellationHandler` for workload code: runs `operation`, and `handler` at once
    /// if the task is cancelled meanwhile, with the handler never preempted.
    ///
    /// ```swift
    /// try await context.withTaskCancellationHandler {
    ///     try await context.clock.sleep(for: .seconds(5))
    /// } onCancel: {
    ///     work.cancel()
    /// }
    /// ```
    ///
    /// App code uses the standard function, which runs as written on Linux: Swift runs a
    /// cancellation handler while it holds the cancelled task's status-record lock, and the engine
    /// never preempts a simulated thread holding a lock of the concurrency runtime (the
    /// Async Under Simulation article, "Cancellation handlers and simulated threads"). This form
    /// adds two things for workloads written for the simulator: it defers preemption in the
    /// handler itself (so also on macOS, where real locks are not seen), and it records the wait,
    /// so that a task still waiting in here when the run ends is cancelled at teardown and its
    /// memory freed when `handler` resumes it.
    /// Contract: as the standard function; `handler` must not block (wait on a simulated lock or
    /// semaphore another thread may hold), here as on a device.
    public func withTaskCancellationHandler<T>(
        operation: () async throws -> T, onCancel handler: @Sendable () -> Void,
        isolation: isolated (any Actor)? = #isolation
    ) async rethrows -> T {
        // Recorded as a cancellable wait: if the run ends while the task waits in here, teardown
        // cancels it, and `handler` resumes it (``DeterministicSimulation/Scheduler/drainAsync(maxJobs:)``).
        let application = self.application
        return try await taskExecutor.withCancellableWait(isolation: isolation) {
            try await _Concurrency.withTaskCancellationHandler(operation: operation, onCancel: {
                // Swift's status lock is held here as BackgroundTaskKit's own lock is in the seam
                // (the engine also sees it on Linux: this deferral is for macOS).
                application.whileCoreHoldsLock(handler)
            }, isolation: isolation)
        }
    }

    private var asyncDomain: (executor: SimulationTaskExecutor, clock: SimulationClock) {
        guard let domain = application.asyncDomain else {
            preconditionFailure("workload '\(device.workload.name)' uses Swift concurrency: declare usesAsync: true in its WorkloadInfo")
        }
        return domain
    }

    // MARK: Synchronisation for workloads

    /// A lock for the app's simulated threads, like `NSLock` or `Mutex`: use it (never a real
    /// lock) for state that several queues touch.
    ///
    /// ```swift
    /// let lock = context.makeLock("uploads")
    /// lock.withLock { pending.append(upload) }
    /// ```
    ///
    /// Contract: with threads, `lock()` blocks only the calling simulated thread while another
    /// holds it, taking and releasing are scheduling points, and a lock-order inversion or a lock
    /// taken twice stops the run with `no-deadlock`. A real lock held across a scheduling point
    /// would block the one OS thread allowed to run and hang the run. Without threads it does
    /// nothing (jobs run one at a time to completion).
    public func makeLock(_ name: String) -> SimulatedLock {
        device.scheduler.makeLock(name: name)
    }

    /// A counting semaphore for the app's simulated threads, like `DispatchSemaphore` (a
    /// `DispatchGroup` wait is a semaphore that each finished piece signals).
    ///
    /// ```swift
    /// let done = context.makeSemaphore("upload done", value: 0)
    /// queue.async { upload(); done.signal() }
    /// done.wait()
    /// ```
    ///
    /// Contract: with threads, `wait()` blocks only the calling simulated thread; a wait nothing
    /// can end stops the run with `no-deadlock`. Without threads `wait()` takes a unit if there
    /// is one and otherwise returns `false` at once, and `signal()` does nothing.
    public func makeSemaphore(_ name: String, value: Int) -> SimulatedSemaphore {
        device.scheduler.makeSemaphore(name: name, value: value)
    }
}

/// A declared piece of client work. ``finish()`` or ``cancel()`` ends it; both are idempotent.
public final class WorkItem: @unchecked Sendable {
    // @unchecked: one simulated thread of the run touches it at a time.
    public let id: Int
    public let name: String
    /// Whether ``finish()`` or ``cancel()`` was called.
    public var isDone: Bool { done }
    /// Stored privately behind ``isDone``, so that every access is in this module and the
    /// optimizer can drop its dynamic exclusivity checks.
    private var done = false
    /// Not retained: a user may keep a work item after its run, when the device may be gone.
    private let deviceReference: DeviceReference

    init(id: Int, name: String, device: SimulatedDevice) {
        self.id = id
        self.name = name
        self.deviceReference = DeviceReference(device, owner: "WorkItem")
    }

    /// The device; traps if it no longer exists (the same contract as an `unowned` reference).
    private var device: SimulatedDevice { deviceReference.device }

    /// The work completed.
    public func finish() { end(cancelled: false) }

    /// The work was stopped early (for example by an expiration handler).
    public func cancel() { end(cancelled: true) }

    private func end(cancelled: Bool) {
        device.scheduler.schedulingPoint()
        guard !done else { return }
        done = true
        device.emit(.workFinished(id: id, name: name, cancelled: cancelled))
    }
}
