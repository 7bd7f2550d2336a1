/// Quoting of arbitrary text for one-line messages and trace output.
enum TextEscaping {
    /// `text` between double quotes, with `"`, `\` and control characters escaped
    /// (`\"`, `\\`, `\n`, `\r`, `\t`, `\u{1b}`), so the result never spans lines.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f
                    || (0x80...0x9f).contains(scalar.value) || scalar.value == 0x2028
                    || scalar.value == 0x2029
                {
                    result += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// One byte of ASCII input for a message: a printable character quoted (`"Z"`), a space as
    /// `a space`, anything else as its hex code (`byte 0x0a`).
    static func describeByte(_ byte: UInt8) -> String {
        if byte >= 0x21, byte < 0x7f { return quoted(String(UnicodeScalar(byte))) }
        if byte == 0x20 { return "a space" }
        return "byte 0x" + String(byte, radix: 16)
    }
}
