extension RaceDetector {
    /// A `DispatchQueue.concurrentPerform` in progress: the caller's context as it was, and the
    /// workers its iterations are dealt to.
    ///
    /// The shim runs the iterations one after another on the calling thread (one of the schedules
    /// Dispatch may choose), but on a device they run on several worker threads at once: iteration
    /// `i` goes to worker `i % workers`, after that worker's previous iteration and after what the
    /// caller did before the call, and after nothing else but what it synchronizes with (a lock
    /// another iteration let go). The caller goes on after every iteration.
    struct IterationFork {
        /// The caller's context when the call began (its clock already handed on).
        var caller: Context
        /// Each worker's component, and its clock at the end of its last iteration.
        var components: [UInt32]
        var ends: [VectorClock]
    }

    /// How many workers a `concurrentPerform`'s iterations are dealt to: the global queue's width
    /// in a run (``Scheduler/makeQueue(label:kind:)``'s `concurrent(width: 4)` for the app's).
    static let iterationWorkers = 4

    /// Context `index` begins a `concurrentPerform` of `count` iterations. Tracking starts here:
    /// the first shared access may be made in an iteration, and it must find the fork.
    func iterationsBegin(count: Int, in index: Int) {
        startTracking()
        let base = send(from: index)
        let workers = max(1, min(count, Self.iterationWorkers))
        iterationForks.append(IterationFork(
            caller: contexts[index], components: (0..<workers).map { _ in takeNewComponent() },
            ends: Array(repeating: base, count: workers)))
        contexts[index].iteration = -1  // inside an iteration of an outer one: not that one's end
    }

    /// Iteration `iteration` of context `index`'s innermost `concurrentPerform` starts: the
    /// context becomes its worker's next step. Ignored without a fork (none was seen begin).
    func iterationStarts(_ iteration: Int, in index: Int) {
        guard let last = iterationForks.indices.last else { return }
        touch(index)
        if contexts[index].iteration >= 0 { iterationEnded(in: index, fork: last) }
        let worker = iteration % iterationForks[last].components.count
        contexts[index].clock = iterationForks[last].ends[worker]
        contexts[index].component = iterationForks[last].components[worker]
        contexts[index].needsTick = true
        contexts[index].iteration = iteration
    }

    /// Context `index`'s innermost `concurrentPerform` returned: the caller goes on after every
    /// iteration.
    func iterationsEnd(in index: Int) {
        guard let last = iterationForks.indices.last else { return }
        touch(index)
        if contexts[index].iteration >= 0 { iterationEnded(in: index, fork: last) }
        let fork = iterationForks.removeLast()
        var caller = fork.caller
        for end in fork.ends { caller.clock.join(end) }
        caller.needsTick = true
        contexts[index] = caller
    }

    /// The iteration running in context `index` ended: its worker's next iteration comes after it.
    private func iterationEnded(in index: Int, fork: Int) {
        let worker = contexts[index].iteration % iterationForks[fork].components.count
        iterationForks[fork].ends[worker] = send(from: index)
    }

    /// Where context `index` runs, for a race report: `place`, and the `concurrentPerform`
    /// iteration when it runs one.
    func place(_ place: String, in index: Int) -> String {
        guard index < contexts.count, contexts[index].iteration >= 0 else { return place }
        return "\(place) (concurrentPerform iteration \(contexts[index].iteration))"
    }
}
