extension SimulationClock {
    /// One sleep in progress: its continuation and wake-up job, shared by the sleeping task and
    /// the cancellation handler, which may run in another job of the run.
    ///
    /// ```swift
    /// let sleeper = Sleeper(clock: clock)
    /// sleeper.park(continuation, until: .seconds(5))   // schedules the wake-up job
    /// sleeper.cancel()                                  // or the job fires: resumes exactly once
    /// ```
    ///
    /// Invariant: the continuation is resumed exactly once, by whichever of the wake-up job and
    /// ``cancel()`` comes first; both run on the run's thread (the baton holder), so no lock.
    final class Sleeper: @unchecked Sendable {
        // @unchecked Sendable: touched only by the thread running the run's jobs; `cancel()`
        // checks that before touching anything.

        let clock: SimulationClock
        var continuation: CheckedContinuation<Void, any Error>?
        var wakeUp: JobID?
        var isCancelled = false

        init(clock: SimulationClock) {
            self.clock = clock
        }

        /// Keeps the continuation and schedules the wake-up job at `time` (resumes at once with
        /// `CancellationError` when cancelled before it parked).
        func park(_ continuation: CheckedContinuation<Void, any Error>, until time: VirtualTime) {
            if clock.state.ledger.isDraining {
                // The run is over: the sleep is cancelled like every other (the handler sets
                // `isCancelled`, as it runs at once, on this thread).
                withUnsafeCurrentTask { $0?.cancel() }
            }
            if isCancelled {
                continuation.resume(throwing: CancellationError())
                return
            }
            self.continuation = continuation
            wakeUp = clock.scheduler.async(at: time, on: clock.queue) { [self] in
                wakeUp = nil
                self.continuation.take()?.resume()
            }
        }

        /// The cancellation handler: cancels the wake-up job and resumes with
        /// `CancellationError`, on the run's thread; from outside the run it only records the
        /// escape (the sleep then ends at its deadline).
        func cancel() {
            guard RunThreadMarker.isMarked(clock.scheduler) else {
                clock.state.recordForeign("a cancel of a sleeping task")
                return
            }
            isCancelled = true
            if let wakeUp { clock.scheduler.cancel(wakeUp) }
            wakeUp = nil
            continuation.take()?.resume(throwing: CancellationError())
        }
    }
}
