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
}
