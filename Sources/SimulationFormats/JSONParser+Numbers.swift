// Number parsing: the RFC 8259 grammar, exact Int64 integers, correctly rounded doubles.

extension JSONParser.Cursor {
    /// Parses a number at `offset` (a '-' or a digit).
    ///
    /// Grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = offset
        let negative = peek(is: "-")
        if negative { offset += 1 }
        let digitsStart = offset
        guard isDigitAtOffset else {
            throw error(
                "expected a digit after '-', found \(found())",
                fix: "Write a number such as -1 or -0.5 (JSON has no -Infinity).")
        }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
            if isDigitAtOffset {
                throw error(
                    "numbers must not start with a leading zero",
                    fix: "Remove the leading zero (write 7, not 07); quote it if it is an identifier.",
                    at: digitsStart)
            }
        } else {
            skipDigits()
        }
        let digitsEnd = offset
        var isInteger = true
        if peek(is: ".") {
            isInteger = false
            offset += 1
            guard isDigitAtOffset else {
                throw error(
                    "expected a digit after the decimal point, found \(found())",
                    fix: "Write at least one digit after '.', for example 1.0.")
            }
            skipDigits()
        }
        if peek(is: "e") || peek(is: "E") {
            isInteger = false
            offset += 1
            if peek(is: "+") || peek(is: "-") { offset += 1 }
            guard isDigitAtOffset else {
                throw error(
                    "expected a digit in the exponent, found \(found())",
                    fix: "Write the exponent as digits, for example 1e6 or 2.5E-3.")
            }
            skipDigits()
        }
        if isInteger, let value = exactInteger(digits: digitsStart..<digitsEnd, negative: negative) {
            return .int(value)
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            let shown = text.count > 24 ? String(text.prefix(24)) + "…" : text
            throw error(
                "the number \(shown) is too large for a 64-bit floating-point value",
                fix: "Use a number of magnitude below 1.7976931348623157e308.",
                at: start)
        }
        return .double(value)
    }

    private var isDigitAtOffset: Bool {
        offset < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset])
    }

    private mutating func skipDigits() {
        while isDigitAtOffset { offset += 1 }
    }

    /// The integer spelled by `digits`, or `nil` if it does not fit in `Int64`.
    /// Accumulates negatively so that `Int64.min` fits.
    private func exactInteger(digits: Range<Int>, negative: Bool) -> Int64? {
        var value: Int64 = 0
        for index in digits {
            let digit = Int64(bytes[index] &- UInt8(ascii: "0"))
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.subtractingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = next
        }
        if negative { return value }
        return value == .min ? nil : -value
    }
}
