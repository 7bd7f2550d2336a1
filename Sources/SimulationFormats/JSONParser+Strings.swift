// String parsing: escapes, surrogate pairs, control characters and UTF-8 validation.

extension JSONParser.Cursor {
    /// Parses a string whose opening quote is at `offset`; leaves `offset` after the closing quote.
    mutating func parseString() throws(JSONParseError) -> String {
        let quoteOffset = offset
        offset += 1
        let start = offset
        // Fast path: no escapes, so the string is a slice of the input.
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: bytes[start..<offset], as: UTF8.self)
                offset += 1
                return text
            }
            if byte == UInt8(ascii: "\\") {
                var buffer = Array(bytes[start..<offset])
                return try parseEscapedString(into: &buffer, quoteOffset: quoteOffset)
            }
            try consumeStringByte(byte)
        }
        throw unterminatedString(quoteOffset)
    }

    /// Continues a string at a backslash, collecting its UTF-8 into `buffer`.
    private mutating func parseEscapedString(
        into buffer: inout [UInt8], quoteOffset: Int
    ) throws(JSONParseError) -> String {
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                offset += 1
                return String(decoding: buffer, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                try parseEscape(into: &buffer)
                continue
            }
            let start = offset
            try consumeStringByte(byte)
            buffer.append(contentsOf: bytes[start..<offset])
        }
        throw unterminatedString(quoteOffset)
    }

    /// Steps over one unescaped character (1–4 bytes), rejecting control characters and
    /// ill-formed UTF-8.
    private mutating func consumeStringByte(_ byte: UInt8) throws(JSONParseError) {
        if byte >= 0x20 && byte < 0x80 {
            offset += 1
            return
        }
        if byte < 0x20 {
            throw controlCharacter(byte)
        }
        let length = UTF8Validation.sequenceLength(at: offset, in: bytes)
        guard length > 0 else {
            throw error(
                "invalid UTF-8 in a string (the byte \(JSONParseError.hexByte(byte)))",
                fix: "Save the file as UTF-8.")
        }
        offset += length
    }

    /// Parses one escape sequence at `offset` (a backslash) and appends its UTF-8.
    private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONParseError) {
        let escapeOffset = offset
        guard offset + 1 < bytes.count else {
            throw error(
                "unterminated escape sequence at the end of the input",
                fix: "Complete the escape and close the string with '\"'.")
        }
        let letter = bytes[offset + 1]
        offset += 2
        switch letter {
        case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            let scalar = try parseUnicodeEscape(escapeOffset: escapeOffset)
            buffer.append(contentsOf: String(Character(scalar)).utf8)
        default:
            let shown = (0x21...0x7E).contains(letter)
                ? "'\\\(Character(Unicode.Scalar(letter)))'"
                : "'\\' followed by \(found(at: escapeOffset + 1))"
            throw error(
                "invalid escape sequence \(shown) in a string",
                fix: #"Use one of \" \\ \/ \b \f \n \r \t \uXXXX, or write '\\' for a backslash."#,
                at: escapeOffset)
        }
    }

    /// Parses the hex digits of `\uXXXX` (and a following low surrogate when needed).
    private mutating func parseUnicodeEscape(escapeOffset: Int) throws(JSONParseError) -> Unicode.Scalar {
        let unit = try readHex4(escapeOffset: escapeOffset)
        switch unit {
        case 0xD800...0xDBFF:
            let lowOffset = offset
            let hasLow = offset + 1 < bytes.count
                && bytes[offset] == UInt8(ascii: "\\") && bytes[offset + 1] == UInt8(ascii: "u")
            if hasLow {
                offset += 2
                let low = try readHex4(escapeOffset: lowOffset)
                if (0xDC00...0xDFFF).contains(low) {
                    let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                    if let scalar = Unicode.Scalar(value) { return scalar }
                }
            }
            throw unpairedSurrogate(unit, at: escapeOffset)
        case 0xDC00...0xDFFF:
            throw unpairedSurrogate(unit, at: escapeOffset)
        default:
            guard let scalar = Unicode.Scalar(UInt32(unit)) else {
                throw unpairedSurrogate(unit, at: escapeOffset)
            }
            return scalar
        }
    }

    /// Reads four hex digits at `offset` as a UTF-16 code unit.
    private mutating func readHex4(escapeOffset: Int) throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for index in 0..<4 {
            let position = offset + index
            guard position < bytes.count, let digit = Self.hexValue(bytes[position]) else {
                throw error(
                    "invalid \\u escape: expected four hexadecimal digits after \\u",
                    fix: "Write the code point as \\u followed by exactly four hex digits, like \\u00e9.",
                    at: escapeOffset)
            }
            value = value << 4 | UInt16(digit)
        }
        offset += 4
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private func unpairedSurrogate(_ unit: UInt16, at position: Int) -> JSONParseError {
        let hex = String(unit, radix: 16, uppercase: true)
        return error(
            "unpaired surrogate \\u\(hex) in a string",
            fix: "Write the character itself, or escape it as a high/low surrogate pair (\\uD83D\\uDE00).",
            at: position)
    }

    private func unterminatedString(_ quoteOffset: Int) -> JSONParseError {
        error(
            "unterminated string: no closing '\"' before the end of the input",
            fix: "Add the closing '\"' at the end of the string.",
            at: quoteOffset)
    }

    private func controlCharacter(_ byte: UInt8) -> JSONParseError {
        let name = JSONParseError.hexScalar(UInt32(byte))
        switch byte {
        case 0x0A, 0x0D:
            return error(
                "line break inside a string (is a closing '\"' missing?)",
                fix: "Close the string with '\"' before the line break, or write \\n for a line break in the text.")
        case 0x09:
            return error("unescaped tab inside a string", fix: "Write \\t for a tab in a string.")
        default:
            let hex = String(byte, radix: 16, uppercase: false)
            return error(
                "unescaped control character \(name) inside a string",
                fix: "Escape it as \\u00\(hex.count == 1 ? "0" : "")\(hex), or remove it.")
        }
    }
}
