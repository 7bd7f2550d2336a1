extension Scheduler {
    /// Points the run's Swift concurrency at a new domain: a new concurrent tasks queue (with its
    /// ``SimulationTaskExecutor`` and ``SimulationClock``) and a new queue for
    /// ``SimulatedMainActor``. A simulator calls it for each process it launches, so that the
    /// tasks of a process stop when the process's queues are frozen (suspension) and never run
    /// again once it died, as on a device.
    ///
    /// ```swift
    /// scheduler.enableAsync()                                   // once, at the run's start
    /// let main = scheduler.makeQueue(label: "p2.main", kind: .serial)
    /// let tasks = scheduler.beginAsyncDomain(label: "p2.tasks", mainQueue: main)
    /// scheduler.async(on: main) { Task(executorPreference: tasks) { await relaunched() } }
    /// // freezing tasks.queue and main stops every task of the domain
    /// ```
    ///
    /// Contract: ``enableAsync(taskWidth:mainQueue:)`` was called first. From this call on,
    /// ``taskExecutor``, ``asyncClock`` and ``mainActorExecutor`` are the new domain's; tasks of
    /// an earlier domain keep their executor and clock (which stay alive until
    /// ``releaseAsync()``) and keep running on their queues unless those are frozen. Escapes caught
    /// by the runtime hooks are scheduled on the current domain's tasks queue.
    /// - Parameters:
    ///   - label: the new tasks queue's label.
    ///   - taskWidth: how many ready task jobs compete to run next.
    ///   - mainQueue: the queue of ``SimulatedMainActor`` in the new domain.
    /// - Returns: the new domain's task executor.
    @discardableResult
    public func beginAsyncDomain(label: String, taskWidth: Int = 4, mainQueue: QueueID) -> SimulationTaskExecutor {
        guard let state = asyncState, let previous = state.taskExecutor else {
            preconditionFailure("call Scheduler.enableAsync(taskWidth:mainQueue:) before beginAsyncDomain")
        }
        state.retired.append(previous)
        if let main = state.mainExecutor { state.retired.append(main) }
        let tasks = makeQueue(label: label, kind: .concurrent(width: taskWidth))
        let executor = SimulationTaskExecutor(scheduler: self, state: state, queue: tasks)
        state.taskExecutor = executor
        state.mainExecutor = SimulationMainExecutor(scheduler: self, state: state, queue: mainQueue)
        state.mainThreadQueue = mainQueue
        state.clock = SimulationClock(scheduler: self, state: state, queue: tasks)
        return executor
    }
}
