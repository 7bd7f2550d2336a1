/// Why a text is not a seed, with the text itself.
///
/// ```swift
/// do {
///     _ = try Seed(parsing: "0xZZ")
/// } catch {
///     print(error)
///     // invalid seed "0xZZ": "Z" is not a hex digit; write 0x and 1 to 16 hex digits
///     // (e.g. 0x00000000000004d2) or a decimal number from 0 to 18446744073709551615
/// }
/// ```
///
/// Contract: ``description`` is one line (the text is escaped) saying what is wrong and which
/// forms are accepted, ready for a command-line error message.
public struct SeedParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text that failed to parse, as given.
    public var text: String
    /// What is wrong with it, e.g. `"Z" is not a hex digit`.
    public var reason: String

    /// Creates an error for `text`.
    ///
    /// ```swift
    /// throw SeedParseError(text: "", reason: "the seed is empty")
    /// ```
    ///
    /// - Parameters:
    ///   - text: the rejected input.
    ///   - reason: a short, single-line explanation.
    public init(text: String, reason: String) {
        self.text = text
        self.reason = reason
    }

    /// The forms ``Seed/init(parsing:)`` accepts, in words.
    package static let acceptedForms =
        "write 0x and 1 to 16 hex digits (e.g. 0x00000000000004d2) "
        + "or a decimal number from 0 to 18446744073709551615"

    /// One line: `invalid seed "<text>": <reason>; <accepted forms>`.
    public var description: String {
        "invalid seed \(TextEscaping.quoted(text)): \(reason); \(Self.acceptedForms)"
    }
}
