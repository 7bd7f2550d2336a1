import DeterministicSimulation

/// A concurrent `DispatchQueue` the app made, on a concurrent simulated queue of its process:
/// its blocks run at once up to the queue's width, except that a barrier block waits for every
/// block sent before it to finish and runs alone, and blocks sent after it wait for it (GCD's
/// `dispatch_barrier_async`). A `sync` runs on the caller's thread when nothing holds it back.
///
/// For the data-race detector the barriers order the blocks as they do on a device: a barrier
/// block is ordered after every block that finished before it, and every block after the
/// barriers that finished before it (`blocksFinished`, `barriersFinished`). So the reader-writer
/// cache (reads in `sync`, writes in `async(flags: .barrier)`) is not a race, and the same cache
/// with plain `async` writes is.
///
/// Contract: a run touches it from one thread at a time; blocks are released to the simulated
/// queue in the order they were sent.
final class ConcurrentDispatchQueue: @unchecked Sendable {
    // @unchecked: a run is confined to one thread at a time (the baton orders the accesses).
    let queue: SimulatedWorkQueue
    private unowned let semaphores: Scheduler
    /// Blocks released and not finished.
    private var running = 0
    private var barrierRunning = false
    /// Blocks held back (behind a barrier, or barriers behind running blocks), in order.
    private var waiting: [(barrier: Bool, release: () -> Void)] = []
    /// Every finished block's past, and every finished barrier's.
    private let blocksFinished = HappensBeforePoint(), barriersFinished = HappensBeforePoint()

    init(_ queue: SimulatedWorkQueue, semaphores: Scheduler) {
        self.queue = queue
        self.semaphores = semaphores
    }

    func async(barrier: Bool, _ work: @escaping @Sendable () -> Void) {
        let release = { [self] in
            queue.async { [self] in
                blockStarts(barrier: barrier)
                work()
                finished(barrier: barrier)
            }
        }
        if waiting.isEmpty, canStart(barrier: barrier) {
            start(barrier: barrier)
            release()
        } else {
            waiting.append((barrier, release))
        }
    }

    /// Runs `work` on the caller's thread once the queue lets it (a barrier alone), blocking only
    /// the calling simulated thread meanwhile.
    func sync(barrier: Bool, _ work: () -> Void) {
        // One thread: nothing else runs meanwhile, so nothing can be in the way (nor wait).
        guard semaphores.hasControlledConcurrency else { return work() }
        if !(waiting.isEmpty && canStart(barrier: barrier)) {
            let turn = semaphores.makeSemaphore(name: "sync on \(queue.label)", value: 0)
            waiting.append((barrier, { turn.signal() }))
            // The run is being torn down: the block runs in place, as a plain queue's `sync` does
            // then (Swift's `sync` returning a value force-unwraps what the block set).
            guard turn.wait() else { return work() }
        } else {
            start(barrier: barrier)
        }
        blockStarts(barrier: barrier)
        work()
        finished(barrier: barrier)
    }

    /// A block starts: a barrier after every block that finished, any other after the barriers.
    private func blockStarts(barrier: Bool) {
        (barrier ? blocksFinished : barriersFinished).acquire(in: semaphores)
    }

    private func canStart(barrier: Bool) -> Bool {
        barrier ? running == 0 : !barrierRunning
    }

    private func start(barrier: Bool) {
        running += 1
        if barrier { barrierRunning = true }
    }

    private func finished(barrier: Bool) {
        blocksFinished.release(in: semaphores)
        if barrier { barriersFinished.release(in: semaphores) }
        running -= 1
        if barrier { barrierRunning = false }
        while let next = waiting.first, canStart(barrier: next.barrier) {
            waiting.removeFirst()
            start(barrier: next.barrier)
            next.release()
        }
    }
}
