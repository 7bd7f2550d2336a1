/// One recorded event and the simulated time it happened at.
///
/// ```swift
/// for entry in recorder.entries {
///     print(entry.time, entry.event.name)   // "1.250000s task.begin"
/// }
/// ```
///
/// Contract: a plain value, kept by a ``TraceRecorder`` created with `keepsEntries: true`.
public struct TraceEntry<Event: TraceEventRepresentable>: Sendable {
    /// When the event happened.
    public let time: VirtualTime
    /// What happened.
    public let event: Event

    /// Creates an entry.
    ///
    /// ```swift
    /// let entry = TraceEntry(time: clock.now, event: AppEvent.began(task: 1))
    /// ```
    ///
    /// - Parameters:
    ///   - time: when the event happened.
    ///   - event: what happened.
    public init(time: VirtualTime, event: Event) {
        self.time = time
        self.event = event
    }
}
