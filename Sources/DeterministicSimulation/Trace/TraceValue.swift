/// The value of one field of a trace event: an integer, a string or a Boolean.
///
/// ```swift
/// TraceField("taskID", .int(7))
/// TraceField("identifier", .string("com.example.refresh"))
/// TraceField("expired", .bool(false))
/// ```
///
/// Contract: times belong in `.int` as microseconds (never floating point), so traces hash and
/// print identically everywhere.
public enum TraceValue: Hashable, Sendable, CustomStringConvertible {
    /// An integer, e.g. an id or a time in microseconds.
    case int(Int64)
    /// A string, e.g. a label or an identifier.
    case string(String)
    /// A Boolean flag.
    case bool(Bool)

    /// `42`, `true`, or the string in double quotes with escapes (`"a \"b\""`), on one line.
    public var description: String {
        switch self {
        case .int(let value): String(value)
        case .string(let value): TextEscaping.quoted(value)
        case .bool(let value): value ? "true" : "false"
        }
    }

    /// Feeds the value to a stable hasher, tagged with its case (1 int, 2 string, 3 bool).
    ///
    /// ```swift
    /// TraceValue.int(7).hash(into: &hasher)
    /// ```
    public func hash(into hasher: inout StableHasher) {
        switch self {
        case .int(let value):
            hasher.combine(1 as UInt64)
            hasher.combine(value)
        case .string(let value):
            hasher.combine(2 as UInt64)
            hasher.combine(value)
        case .bool(let value):
            hasher.combine(3 as UInt64)
            hasher.combine(value)
        }
    }
}
