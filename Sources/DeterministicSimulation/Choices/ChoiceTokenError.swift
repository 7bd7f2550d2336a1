/// Why a text is not a choice-sequence token.
///
/// ```swift
/// do {
///     _ = try ChoiceSequence(token: "c2.AA")
/// } catch {
///     print(error)   // invalid choice token: it must start with "c1." …
/// }
/// ```
///
/// Contract: ``description`` is one line: `invalid choice token: <reason>`.
public struct ChoiceTokenError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, e.g. `invalid character "%" at offset 5`.
    public var reason: String

    /// Creates an error with a reason.
    ///
    /// ```swift
    /// throw ChoiceTokenError(reason: "truncated varint at the end")
    /// ```
    ///
    /// - Parameter reason: a short, single-line explanation.
    public init(reason: String) {
        self.reason = reason
    }

    /// One line: `invalid choice token: <reason>`.
    public var description: String {
        "invalid choice token: \(reason)"
    }
}
