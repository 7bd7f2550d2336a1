/// What a scenario's `name` may be. The name becomes file names (`--report Reports/` writes
/// `Reports/<name>.json`, the failure database `<name>--<invariant>.json`) and is printed in
/// every summary line, so it is checked when the scenario is parsed (exit 65), not when a file
/// write or a terminal trips over it.
///
/// ```swift
/// ScenarioName.problem(in: "token-correct-ios17")   // nil: fine
/// ScenarioName.problem(in: "evil\u{1B}[2J")          // "the name contains the control character U+001B ..."
/// ```
///
/// Contract: a name is 1 to ``maxBytes`` bytes of UTF-8, does not start with `.`, and holds no
/// `/`, no `\`, no whitespace and no control, format, private-use or unassigned Unicode
/// characters (so a NUL cannot cut a path, and a newline or a terminal escape cannot reach the
/// terminal). Any other printable character is allowed; kebab-case is the convention.
/// A problem is described without echoing the character itself.
public enum ScenarioName {
    /// The longest name, in bytes of UTF-8: with `.json` and the temporary file's suffix it stays
    /// well under a file system's 255-byte file name limit.
    public static let maxBytes = 100

    /// What is wrong with `name`, as a phrase for the `name` field's error, or `nil` if nothing is.
    public static func problem(in name: String) -> String? {
        if name.isEmpty { return "the name is empty" }
        if name.utf8.count > maxBytes {
            return "the name is \(name.utf8.count) bytes long (UTF-8), over the limit of \(maxBytes)"
        }
        if name.hasPrefix(".") { return "the name starts with '.' (a hidden file name)" }
        for (offset, scalar) in name.unicodeScalars.enumerated() {
            if let kind = kind(of: scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                return "the name contains \(kind) (\(code)) at character \(offset + 1)"
            }
        }
        return nil
    }

    /// The kind of a character a name may not hold, or `nil` for an allowed one.
    private static func kind(of scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "/": return "a '/'"
        case "\\": return "a '\\'"
        default: break
        }
        switch scalar.properties.generalCategory {
        case .control: return "a control character"
        case .format: return "an invisible format character"
        case .privateUse, .unassigned, .surrogate: return "an unassigned or private-use character"
        case .spaceSeparator, .lineSeparator, .paragraphSeparator: return "a space"
        default: return scalar.properties.isWhitespace ? "a space" : nil
        }
    }
}
