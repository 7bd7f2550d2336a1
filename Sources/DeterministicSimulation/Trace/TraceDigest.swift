/// A 64-bit digest of a trace (or of many traces), printed as 16 lowercase hex digits.
///
/// Two runs with equal digests almost certainly had identical traces; the report's
/// `traceDigest` is one of these.
///
/// ```swift
/// let recorder = TraceRecorder<AppEvent>(keepsEntries: false)
/// // … run …
/// print(recorder.digest)   // "3f9c0e1d2b4a6c58"
/// ```
///
/// Contract: a plain value; ``description`` is always 16 lowercase hex digits, no prefix, and
/// ``init(parsing:)`` reads it back.
public struct TraceDigest: Hashable, Sendable, CustomStringConvertible {
    /// The digest's 64 bits.
    public let value: UInt64

    /// Wraps a 64-bit value.
    ///
    /// ```swift
    /// let digest = TraceDigest(hasher.finalize())
    /// ```
    ///
    /// - Parameter value: the digest.
    public init(_ value: UInt64) {
        self.value = value
    }

    /// Reads exactly 16 hex digits (either case, no prefix), as written by ``description``;
    /// `nil` for anything else.
    ///
    /// ```swift
    /// let pinned = TraceDigest(parsing: "3f9c0e1d2b4a6c58")
    /// ```
    ///
    /// - Parameter text: 16 hex digits.
    public init?(parsing text: String) {
        guard text.utf8.count == 16, text.utf8.allSatisfy({ Self.isHexDigit($0) }),
            let value = UInt64(text, radix: 16)
        else { return nil }
        self.value = value
    }

    /// 16 lowercase hex digits, e.g. `"00000000000004d2"`.
    public var description: String {
        Hex.sixteenDigits(value)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
