/// Why and where a JSON text could not be parsed, in plain language.
///
/// ```swift
/// do {
///     _ = try JSONParser().parse(#"{"runs": 10,}"#)
/// } catch {
///     print(error)   // line 1, column 12: trailing comma before '}'
///     print(error.fix)   // Remove the comma after the last member; JSON does not allow trailing commas.
/// }
/// ```
///
/// Contract:
/// - `line` and `column` are 1-based. Lines end at LF (`\n`). `column` counts Unicode scalars
///   (for ASCII text, characters) from the start of the line, so it matches what an editor shows
///   for most files; bytes of invalid UTF-8 count one each. A leading byte-order mark is not counted.
/// - `byteOffset` is the 0-based offset of the offending byte in the input; it equals the input's
///   length when the problem is the end of the input. The position is always within the input.
/// - `reason` is a lowercase phrase without a final period; `fix` is one sentence.
package struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, for example `expected ',' or '}' after an object member, found '"'`.
    package let reason: String
    /// How to fix it, as one sentence.
    package let fix: String
    /// The 1-based line of the problem.
    package let line: Int
    /// The 1-based column of the problem, in Unicode scalars from the start of the line.
    package let column: Int
    /// The 0-based byte offset of the problem; `input.count` means the end of the input.
    package let byteOffset: Int

    /// Creates an error at an explicit position (the parser computes positions itself).
    ///
    /// ```swift
    /// let error = JSONParseError(reason: "the file is empty", fix: "Write a JSON value.",
    ///                            line: 1, column: 1, byteOffset: 0)
    /// ```
    package init(reason: String, fix: String, line: Int, column: Int, byteOffset: Int) {
        self.reason = reason
        self.fix = fix
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
    }

    /// `line L, column C: reason`.
    ///
    /// ```swift
    /// print(error)   // line 3, column 5: unterminated string: no closing '"' before the end of the input
    /// ```
    package var description: String {
        "line \(line), column \(column): \(reason)"
    }
}

extension JSONParseError {
    /// An error at `offset` in `bytes`, computing line and column as documented above.
    init(_ reason: String, fix: String, at offset: Int, in bytes: [UInt8]) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = Self.hasByteOrderMark(bytes) ? 3 : 0
        var index = lineStart
        while index < end {
            if bytes[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        var column = 1
        index = lineStart
        while index < end {
            if bytes[index] & 0b1100_0000 != 0b1000_0000 { column += 1 }
            index += 1
        }
        self.init(reason: reason, fix: fix, line: line, column: column, byteOffset: end)
    }

    static func hasByteOrderMark(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    /// How the byte at `offset` reads in a message: `'x'`, `'“'`, `byte 0xFF`, or `the end of the input`.
    static func describe(at offset: Int, in bytes: [UInt8]) -> String {
        guard offset < bytes.count else { return "the end of the input" }
        let byte = bytes[offset]
        switch byte {
        case 0x20...0x7E:
            return "'\(Character(Unicode.Scalar(byte)))'"
        case UInt8(ascii: "\n"): return "a line break"
        case UInt8(ascii: "\t"): return "a tab"
        case UInt8(ascii: "\r"): return "a carriage return"
        case 0x00..<0x20, 0x7F:
            return "the control character \(hexScalar(UInt32(byte)))"
        default:
            if let scalar = decodeScalar(at: offset, in: bytes) {
                return "'\(Character(scalar))' (\(hexScalar(scalar.value)))"
            }
            return "the byte \(hexByte(byte)), which is not valid UTF-8"
        }
    }

    /// `U+000A`-style name of a scalar value.
    static func hexScalar(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// `0xFF`-style name of a byte.
    static func hexByte(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" : "") + digits
    }

    /// The scalar encoded at `offset`, if the bytes there are well-formed UTF-8.
    static func decodeScalar(at offset: Int, in bytes: [UInt8]) -> Unicode.Scalar? {
        let length = UTF8Validation.sequenceLength(at: offset, in: bytes)
        guard length > 0 else { return nil }
        var decoder = UTF8()
        var iterator = bytes[offset..<(offset + length)].makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return nil
    }
}

/// Well-formed UTF-8 per RFC 3629 (no overlong forms, no surrogates, nothing above U+10FFFF).
enum UTF8Validation {
    /// The length of the well-formed sequence starting at `offset`, or 0 if it is ill-formed
    /// or truncated.
    static func sequenceLength(at offset: Int, in bytes: [UInt8]) -> Int {
        let count = bytes.count
        guard offset < count else { return 0 }
        let lead = bytes[offset]
        func continuation(_ delta: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            offset + delta < count && range.contains(bytes[offset + delta])
        }
        switch lead {
        case 0x00...0x7F:
            return 1
        case 0xC2...0xDF:
            return continuation(1) ? 2 : 0
        case 0xE0:
            return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF:
            return continuation(1) && continuation(2) ? 3 : 0
        case 0xED:
            return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : 0
        case 0xF0:
            return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3:
            return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4:
            return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default:
            return 0
        }
    }
}
