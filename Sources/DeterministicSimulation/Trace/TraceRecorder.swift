/// Records the events of one run: always a running digest and a count, and the entries
/// themselves when asked (for printing and shrinking; fuzzing skips them for speed).
///
/// ```swift
/// let trace = TraceRecorder<AppEvent>(keepsEntries: false)
/// trace.record(.began(task: 1), at: clock.now)
/// trace.record(.ended(task: 1), at: clock.now)
/// print(trace.count, trace.digest)   // 2 5e0c…
/// ```
///
/// Contract: the digest depends on every recorded (time, event content) pair and their order,
/// and nothing else: for each event, the run's ``StableHasher`` is fed the time's microseconds and
/// then the ``StableHasher`` hash of the event alone (`event.hash(into:)` on a fresh hasher),
/// so events are framed unambiguously. ``digest`` of an empty recorder is that of a fresh
/// hasher. Recording is O(1) amortized plus the event's own hash; no allocation unless entries
/// are kept. Not thread-safe: one run, one thread.
public final class TraceRecorder<Event: TraceEventRepresentable> {
    /// Whether ``entries`` are kept.
    public let keepsEntries: Bool
    /// The running hash over (time, event hash) pairs.
    private var hasher = StableHasher()
    /// The recorded entries (empty when ``keepsEntries`` is false).
    public private(set) var entries: [TraceEntry<Event>] = []
    /// The number of events recorded (kept or not).
    public private(set) var count = 0

    /// Creates an empty recorder.
    ///
    /// ```swift
    /// let fast = TraceRecorder<AppEvent>(keepsEntries: false)   // fuzzing: digest only
    /// let full = TraceRecorder<AppEvent>(keepsEntries: true)    // replay: print the trace
    /// ```
    ///
    /// - Parameter keepsEntries: whether to keep each entry as well as the digest.
    public init(keepsEntries: Bool) {
        self.keepsEntries = keepsEntries
    }

    /// Records `event` as happening at `time`.
    ///
    /// ```swift
    /// trace.record(.began(task: id), at: scheduler.now)
    /// ```
    ///
    /// - Parameters:
    ///   - event: what happened.
    ///   - time: when; usually the clock's `now`.
    public func record(_ event: Event, at time: VirtualTime) {
        var eventHasher = StableHasher()
        event.hash(into: &eventHasher)
        hasher.combine(time.microseconds)
        hasher.combine(eventHasher.finalize())
        count += 1
        if keepsEntries {
            entries.append(TraceEntry(time: time, event: event))
        }
    }

    /// The digest of everything recorded so far.
    public var digest: TraceDigest {
        TraceDigest(hasher.finalize())
    }
}
