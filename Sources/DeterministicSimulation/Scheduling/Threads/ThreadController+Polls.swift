/// A simulated thread's polling, as the shim sees it in a loop of Foundation's that has no
/// scheduling point (``Scheduler/pollPoint()``).
struct PollWatch {
    /// The run's progress when the thread last polled.
    var progress: RunProgress
    /// The virtual time it waits at its next poll if nothing happens meanwhile, in microseconds.
    var wait: Int64
}

extension ThreadController {
    /// The first wait of a poll that saw nothing happen, and the longest.
    static let firstPollWait: Int64 = 1
    static let longestPollWait: Int64 = 1_000

    /// A poll of the running thread: when the run's progress (jobs made, threads woken) is what
    /// it was at the thread's last poll, the loop is spinning on something only another thread
    /// can change, and the thread sleeps (``firstPollWait``, doubling while nothing happens, up
    /// to ``longestPollWait``): a sleep takes it off the CPU under every strategy, PCT too, whose
    /// highest-priority thread a plain point would resume at once. Otherwise it goes on. On a
    /// device the other thread runs on another core and the loop ends at once; the virtual time
    /// slept is the model's (at most about twice the time the loop waited).
    ///
    /// While the run unwinds the thread, a poll counts as a wait that returns at once
    /// (``noteUnwindingWait(in:)``: the loop polls for work of a process that is gone), and a dead
    /// thread resumed only to give back what it held stops there when it holds nothing
    /// (``stopsInertRun(of:in:)``).
    func pollPoint(in scheduler: Scheduler) {
        guard let me = state.current else { return }
        if state.isUnwinding && !stopsInertRun(of: me, in: scheduler) {
            noteUnwindingWait(in: scheduler)
            return
        }
        let now = progress(in: scheduler)
        guard var watch = state.polls[me], watch.progress == now else {
            state.polls[me] = PollWatch(progress: now, wait: Self.firstPollWait)
            return
        }
        let wait = watch.wait
        watch.wait = min(wait * 2, Self.longestPollWait)
        sleepCurrent(microseconds: wait, in: scheduler)
        watch.progress = progress(in: scheduler)
        state.polls[me] = watch
    }
}
