/// One named value of a trace event, for printing and JSON traces.
///
/// ```swift
/// let field = TraceField("queue", .string("main"))
/// ```
///
/// Contract: keys are short camelCase names, stable across versions (reports and golden files
/// use them).
public struct TraceField: Hashable, Sendable {
    /// The field's name, e.g. `"taskID"`.
    public var key: String
    /// The field's value.
    public var value: TraceValue

    /// Creates a field.
    ///
    /// ```swift
    /// TraceField("remainingMicroseconds", .int(4_500_000))
    /// ```
    ///
    /// - Parameters:
    ///   - key: the field's name.
    ///   - value: the field's value.
    public init(_ key: String, _ value: TraceValue) {
        self.key = key
        self.value = value
    }
}
