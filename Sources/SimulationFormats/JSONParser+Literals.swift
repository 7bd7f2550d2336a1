// Literals, and the wording of "expected a value" errors with hints for common mistakes.

extension JSONParser.Cursor {
    /// Parses `true`, `false` or `null`, or explains what the word at `offset` is not.
    mutating func parseLiteral() throws(JSONParseError) -> JSONValue {
        var end = offset
        while end < bytes.count, end - offset < 40, Self.isWordByte(bytes[end]) { end += 1 }
        let word = String(decoding: bytes[offset..<end], as: UTF8.self)
        switch word {
        case "true": offset = end; return .bool(true)
        case "false": offset = end; return .bool(false)
        case "null": offset = end; return .null
        case "": throw expectedValue()
        default: break
        }
        let shown = end - offset >= 40 ? word + "…" : word
        let fix: String
        switch word.lowercased() {
        case "nan", "infinity", "inf":
            fix = "JSON has no NaN or Infinity; use a finite number or null."
        case "true", "false", "null", "none", "nil", "undefined":
            fix = "JSON literals are lowercase: true, false and null."
        default:
            fix = "Put text in double quotes to make it a string."
        }
        throw error("expected a value, found '\(shown)'", fix: fix)
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    func expectedValue() -> JSONParseError {
        error(
            "expected a value, found \(found())",
            fix: hint(or: "Write a value here: an object, array, string, number, true, false or null."))
    }

    /// A specific fix for common mistakes at `offset`, or `fallback`.
    func hint(or fallback: String) -> String {
        guard offset < bytes.count else {
            return "The input ends too early; complete the value and close every '{' and '['."
        }
        switch bytes[offset] {
        case UInt8(ascii: "'"):
            return "Use double quotes (\") for strings and member names."
        case UInt8(ascii: "/"), UInt8(ascii: "#"):
            return "Remove the comment; JSON does not allow comments."
        case 0xE2 where offset + 2 < bytes.count && bytes[offset + 1] == 0x80
            && (0x9C...0x9D).contains(bytes[offset + 2]):
            return "Replace curly quotes with straight double quotes (\")."
        case 0x80...0xFF where UTF8Validation.sequenceLength(at: offset, in: bytes) == 0:
            return "Save the file as UTF-8."
        default:
            return fallback
        }
    }
}
