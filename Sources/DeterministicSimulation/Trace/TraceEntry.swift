/// One recorded event, the simulated time it happened at, and the simulated thread it happened on.
///
/// ```swift
/// for entry in recorder.entries {
///     print(entry.time, entry.thread ?? "-", entry.event.name)   // "1.250000s p1.db task.begin"
/// }
/// ```
///
/// Contract: a plain value, kept by a ``TraceRecorder`` created with `keepsEntries: true`. The
/// thread is not part of the trace's digest: it follows from the same choices as the events, so
/// two runs with equal digests attribute their events alike (see ``TraceRecorder``).
public struct TraceEntry<Event: TraceEventRepresentable>: Sendable {
    /// When the event happened.
    public let time: VirtualTime
    /// What happened.
    public let event: Event
    /// The label of the simulated thread that was running when it happened (the simulator names
    /// them by process and queue: `"p1.main"`, `"p1.db"`, `"p1.global#2"`, and `"system"` for
    /// the simulated OS's own jobs), or nil: outside every job, or in a run without controlled
    /// concurrency.
    public let thread: String?

    /// Creates an entry.
    ///
    /// ```swift
    /// let entry = TraceEntry(time: clock.now, event: AppEvent.began(task: 1), thread: "main")
    /// ```
    ///
    /// - Parameters:
    ///   - time: when the event happened.
    ///   - event: what happened.
    ///   - thread: the simulated thread it happened on, if any.
    public init(time: VirtualTime, event: Event, thread: String? = nil) {
        self.time = time
        self.event = event
        self.thread = thread
    }
}
