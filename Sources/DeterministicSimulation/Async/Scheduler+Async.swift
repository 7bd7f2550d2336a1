import ThreadSanitizerSupport

extension Scheduler {
    /// Lets the run's workload use Swift concurrency deterministically: makes the run's task
    /// executor (on a new concurrent `"tasks"` queue), its simulated main actor's executor (on
    /// `mainQueue`) and its ``SimulationClock``, and installs the escape hooks
    /// (``GlobalExecutorHooks``) if this process has not yet.
    ///
    /// ```swift
    /// let scheduler = Scheduler(choices: ChoiceSource(seed: runSeed))
    /// let tasks = scheduler.enableAsync(taskWidth: 4)
    /// scheduler.async(on: scheduler.mainQueue) {
    ///     Task(executorPreference: tasks) { try await scheduler.asyncClock.sleep(for: .seconds(1)) }
    /// }
    /// _ = scheduler.run(until: .seconds(5))
    /// #expect(scheduler.asyncEscapes.isEmpty)
    /// ```
    ///
    /// Contract: call once, before the first run (and after
    /// ``enableControlledConcurrency(_:pool:)`` if both are used; the order does not matter to
    /// results). Start every task of the run inside a scheduler job, with
    /// `Task(executorPreference: taskExecutor)` (child tasks inherit it). At teardown, call
    /// ``drainAsync(maxJobs:)`` (finishes the tasks still suspended, cancelled), then
    /// ``discardPendingJobs(rounds:)``, then ``releaseAsync()``.
    /// - Parameters:
    ///   - taskWidth: how many ready task jobs compete to run next (the tasks queue's width).
    ///   - mainQueue: the queue of ``SimulatedMainActor`` (the simulator passes its main queue).
    /// - Returns: the run's task executor (also ``taskExecutor``).
    @discardableResult
    public func enableAsync(taskWidth: Int = 4, mainQueue: QueueID? = nil) -> SimulationTaskExecutor {
        precondition(asyncState?.taskExecutor == nil, "enableAsync was already called on this scheduler")
        _ = GlobalExecutorHooks.installed
        let state = asyncStateMakingIfNeeded
        let tasks = makeQueue(label: "tasks", kind: .concurrent(width: taskWidth))
        let executor = SimulationTaskExecutor(scheduler: self, state: state, queue: tasks)
        state.taskExecutor = executor
        state.mainExecutor = SimulationMainExecutor(scheduler: self, state: state, queue: mainQueue ?? self.mainQueue)
        state.mainThreadQueue = mainQueue ?? self.mainQueue
        state.clock = SimulationClock(scheduler: self, state: state, queue: tasks)
        if ProcessExecutors.isInstalled, #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) {
            state.ledger.stampSerial = RunJobStamps.register(state)
        }
        return executor
    }

    /// Whether ``enableAsync(taskWidth:mainQueue:)`` was called.
    public var hasAsync: Bool { asyncState?.taskExecutor != nil }

    /// Whether the run used Swift concurrency: its executors were enabled
    /// (``enableAsync(taskWidth:mainQueue:)``), or a task's job, a real main-actor hop or a real
    /// sleep was seen (each an escape of a run without them). Without it no task, and so no
    /// checked continuation, is among what the run's code holds. Read it before
    /// ``releaseAsync()``.
    package var usedSwiftConcurrency: Bool {
        guard let state = asyncState else { return false }
        return state.taskExecutor != nil || !state.retired.isEmpty
            || state.escapes.withAnnotatedLock { !$0.kept.isEmpty || $0.dropped > 0 }
    }

    /// The run's task executor: prefer it for every task of the run.
    ///
    /// ```swift
    /// Task(executorPreference: scheduler.taskExecutor) { await work() }
    /// ```
    ///
    /// - Precondition: ``enableAsync(taskWidth:mainQueue:)`` was called.
    public var taskExecutor: SimulationTaskExecutor {
        guard let executor = asyncState?.taskExecutor else { preconditionFailure(Self.needsAsync) }
        return executor
    }

    /// The executor of the run's ``SimulatedMainActor``.
    ///
    /// ```swift
    /// scheduler.mainActorExecutor.queue == scheduler.mainQueue   // by default
    /// ```
    ///
    /// - Precondition: ``enableAsync(taskWidth:mainQueue:)`` was called.
    package var mainActorExecutor: SimulationMainExecutor {
        guard let executor = asyncState?.mainExecutor else { preconditionFailure(Self.needsAsync) }
        return executor
    }

    /// The run's virtual `Clock`, for code that takes `any Clock<Duration>`.
    ///
    /// ```swift
    /// try await scheduler.asyncClock.sleep(for: .milliseconds(250))
    /// ```
    ///
    /// - Precondition: ``enableAsync(taskWidth:mainQueue:)`` was called.
    public var asyncClock: SimulationClock {
        guard let clock = asyncState?.clock else { preconditionFailure(Self.needsAsync) }
        return clock
    }

    /// The work that left the run's deterministic world so far, in the order seen (at most 64;
    /// see ``asyncEscapesDropped``). Empty for a correct run. A run with escapes is not
    /// reproducible: report it as a failure (the simulator's runner turns it into a violation).
    ///
    /// ```swift
    /// if let first = scheduler.asyncEscapes.first { fail("nondeterministic run: \(first)") }
    /// ```
    ///
    /// Contract: escapes are seen by the runtime hooks only in a process where some run called
    /// ``enableAsync(taskWidth:mainQueue:)`` (it installs them); foreign enqueues into this run's
    /// executors are always seen. Safe to read from any thread.
    public var asyncEscapes: [AsyncEscape] {
        asyncState?.escapes.withAnnotatedLock { $0.kept } ?? []
    }

    /// Escapes seen beyond the 64 that ``asyncEscapes`` keeps.
    public var asyncEscapesDropped: Int {
        asyncState?.escapes.withAnnotatedLock { $0.dropped } ?? 0
    }

    private static let needsAsync = "call Scheduler.enableAsync(taskWidth:mainQueue:) first"
}
