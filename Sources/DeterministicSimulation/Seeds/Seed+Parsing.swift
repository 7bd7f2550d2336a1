extension Seed {
    /// Reads a seed written as `0x` (or `0X`) and 1 to 16 hex digits, or as a decimal number.
    ///
    /// ```swift
    /// let a = try Seed(parsing: "0x00000000000004d2")
    /// let b = try Seed(parsing: "1234")
    /// a == b   // true
    /// ```
    ///
    /// Contract: accepted forms are exactly `0x`/`0X` followed by 1...16 hex digits (either case),
    /// and 1 or more decimal digits whose value is at most `UInt64.max` (leading zeros allowed).
    /// Nothing else: no sign, no spaces, no underscores, no `0x` alone, no 17th hex digit.
    /// `Seed(parsing: seed.description) == seed` for every seed.
    ///
    /// - Parameter text: the seed as typed by a person or printed by ``description``.
    /// - Throws: ``SeedParseError`` naming the text and what is wrong.
    /// - Complexity: O(length of `text`).
    public init(parsing text: String) throws(SeedParseError) {
        let bytes = Array(text.utf8)
        if bytes.isEmpty {
            throw SeedParseError(text: text, reason: "the seed is empty")
        }
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "0"),
            bytes[1] == UInt8(ascii: "x") || bytes[1] == UInt8(ascii: "X")
        {
            self.init(try Self.parseHex(bytes[2...], text: text))
        } else {
            self.init(try Self.parseDecimal(bytes[...], text: text))
        }
    }

    private static func parseHex(_ digits: ArraySlice<UInt8>, text: String) throws(SeedParseError)
        -> UInt64
    {
        if digits.isEmpty {
            throw SeedParseError(text: text, reason: "no hex digits after 0x")
        }
        var value: UInt64 = 0
        for byte in digits {
            guard let digit = hexDigitValue(byte) else {
                throw SeedParseError(
                    text: text, reason: "\(TextEscaping.describeByte(byte)) is not a hex digit")
            }
            value = value &<< 4 | digit
        }
        if digits.count > 16 {
            throw SeedParseError(
                text: text, reason: "\(digits.count) hex digits is too many (at most 16)")
        }
        return value
    }

    private static func parseDecimal(_ digits: ArraySlice<UInt8>, text: String)
        throws(SeedParseError) -> UInt64
    {
        var value: UInt64 = 0
        var overflow = false
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                throw SeedParseError(
                    text: text, reason: "\(TextEscaping.describeByte(byte)) is not a decimal digit")
            }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            overflow = overflow || o1 || o2
            value = sum
        }
        if overflow {
            throw SeedParseError(
                text: text, reason: "the number is larger than 18446744073709551615")
        }
        return value
    }

    private static func hexDigitValue(_ byte: UInt8) -> UInt64? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt64(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt64(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
