/// An event type a ``TraceRecorder`` can record: it hashes stably, and has a name and fields
/// for printing.
///
/// ```swift
/// enum AppEvent: TraceEventRepresentable {
///     case began(task: Int64), ended(task: Int64)
///     var name: String { switch self { case .began: "task.begin"; case .ended: "task.end" } }
///     var fields: [TraceField] {
///         switch self {
///         case .began(let task), .ended(let task): [TraceField("task", .int(task))]
///         }
///     }
///     // `hash(into:)` comes from the default (name and fields); write your own to go faster.
/// }
/// ```
///
/// Contract: `hash(into:)` feeds the event's whole content (not its time: the recorder adds
/// that) and must be stable across processes: never use `hashValue`. Events that compare equal
/// must hash equally.
public protocol TraceEventRepresentable: Sendable {
    /// Feeds the event's content to a stable hasher.
    func hash(into hasher: inout StableHasher)
    /// The event's content hash on its own: `hash(into:)` on a fresh ``StableHasher``, finalized
    /// (what ``TraceRecorder`` feeds its digest). The default computes exactly that; an event type
    /// may return a precomputed value instead, but it must be the same number.
    var contentHash: UInt64 { get }
    /// A short dotted name, e.g. `"task.begin"`.
    var name: String { get }
    /// The event's details, in a fixed order.
    var fields: [TraceField] { get }
}

extension TraceEventRepresentable {
    /// `hash(into:)` on a fresh hasher, finalized.
    @inlinable
    public var contentHash: UInt64 {
        var hasher = StableHasher()
        hash(into: &hasher)
        return hasher.finalize()
    }

    /// The default content hash: ``name``, the number of ``fields``, then each field's key and
    /// tagged value. Allocates the fields array; hand-written hashes avoid that.
    ///
    /// ```swift
    /// var hasher = StableHasher()
    /// event.hash(into: &hasher)
    /// ```
    public func hash(into hasher: inout StableHasher) {
        hasher.combine(name)
        let fields = self.fields
        hasher.combine(fields.count)
        for field in fields {
            hasher.combine(field.key)
            field.value.hash(into: &hasher)
        }
    }
}
