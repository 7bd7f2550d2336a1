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
/// Contract: the digest (unless ``hashesEvents`` is off) depends on every recorded (time, event content) pair and their order,
/// and nothing else: for each event, the run's ``StableHasher`` is fed the time's microseconds and
/// then the ``StableHasher`` hash of the event alone (``TraceEventRepresentable/contentHash``:
/// `event.hash(into:)` on a fresh hasher),
/// so events are framed unambiguously. ``digest`` of an empty recorder is that of a fresh
/// hasher. Recording is O(1) amortized plus the event's own hash; no allocation unless entries
/// are kept. Not thread-safe: one run, one thread.
public final class TraceRecorder<Event: TraceEventRepresentable> {
    /// Whether ``entries`` are kept.
    public let keepsEntries: Bool
    /// Whether events feed the ``digest`` (off, the digest stays that of an empty recorder: for
    /// runs whose digest nothing reads, such as a shrink's candidates).
    public let hashesEvents: Bool

    /// What recording changes.
    @usableFromInline
    internal struct State {
        /// The running hash over (time, event hash) pairs.
        @usableFromInline var hasher = StableHasher()
        /// Storage behind ``TraceRecorder/entries``.
        @usableFromInline var entries: [TraceEntry<Event>] = []
        /// Storage behind ``TraceRecorder/count``.
        @usableFromInline var count = 0

        @usableFromInline init() {}
    }

    /// The mutable state, in one place. Unchecked exclusivity: every event is recorded, and the
    /// dynamic check cost more than recording it. Safe because a recorder is confined to one
    /// thread and no access to it spans a call that could reach it again (an event's hash is
    /// computed by ``record(_:at:)`` before the access).
    @exclusivity(unchecked) @usableFromInline internal var state = State()

    /// Creates an empty recorder.
    ///
    /// ```swift
    /// let fast = TraceRecorder<AppEvent>(keepsEntries: false)   // fuzzing: digest only
    /// let full = TraceRecorder<AppEvent>(keepsEntries: true)    // replay: print the trace
    /// ```
    ///
    /// - Parameters:
    ///   - keepsEntries: whether to keep each entry as well as the digest.
    ///   - hashesEvents: whether to compute the digest (``hashesEvents``).
    public init(keepsEntries: Bool, hashesEvents: Bool = true) {
        self.keepsEntries = keepsEntries
        self.hashesEvents = hashesEvents
    }

    /// Names the simulated thread each kept entry happens on (``TraceEntry/thread``); nil, the
    /// default, names none. Asked only when entries are kept, so a campaign's runs never pay for
    /// it. Not part of the digest.
    ///
    /// ```swift
    /// recorder.threadLabel = { [unowned scheduler] in scheduler.currentThreadLabel }
    /// ```
    public var threadLabel: (() -> String?)?

    /// The recorded entries, oldest first (empty when ``keepsEntries`` is false).
    public var entries: [TraceEntry<Event>] { state.entries }

    /// The number of events recorded (kept or not).
    public var count: Int { state.count }

    /// Records `event` as happening at `time`.
    ///
    /// ```swift
    /// trace.record(.began(task: id), at: scheduler.now)
    /// ```
    ///
    /// Inlinable, so it is specialized for the caller's event type.
    /// - Parameters:
    ///   - event: what happened.
    ///   - time: when; usually the clock's `now`.
    @inlinable
    public func record(_ event: Event, at time: VirtualTime) {
        if hashesEvents {
            let contentHash = event.contentHash
            state.hasher.combine(time.microseconds)
            state.hasher.combine(contentHash)
        }
        state.count += 1
        if keepsEntries {
            let thread = threadLabel?()
            state.entries.append(TraceEntry(time: time, event: event, thread: thread))
        }
    }

    /// The digest of everything recorded so far.
    public var digest: TraceDigest {
        TraceDigest(state.hasher.finalize())
    }
}
