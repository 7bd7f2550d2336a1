// Escaping for XML 1.0 text and attribute values.

extension XMLWriter {
    /// Escapes text content: `&` `<` `>` become entities, carriage returns become `&#13;` (so
    /// parsers do not turn them into line feeds), and characters XML 1.0 forbids become U+FFFD.
    ///
    /// ```swift
    /// XMLWriter.escapeText("a < b && c")        // "a &lt; b &amp;&amp; c"
    /// XMLWriter.escapeText("bell\u{7}")          // "bell\u{FFFD}"
    /// ```
    ///
    /// Tab and line feed are kept as they are. Quotes need no escaping in text and are kept.
    package static func escapeText(_ text: String) -> String {
        escape(text, inAttribute: false)
    }

    /// Escapes an attribute value for double quotes: `&` `<` `>` `"` `'` become entities; tab,
    /// line feed and carriage return become `&#9;` `&#10;` `&#13;` (so they survive attribute
    /// normalization); characters XML 1.0 forbids become U+FFFD.
    ///
    /// ```swift
    /// XMLWriter.escapeAttribute("say \"hi\"\n")   // "say &quot;hi&quot;&#10;"
    /// ```
    package static func escapeAttribute(_ value: String) -> String {
        escape(value, inAttribute: true)
    }

    /// Whether XML 1.0 allows `scalar` in a document
    /// (`#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`).
    ///
    /// ```swift
    /// XMLWriter.isAllowed("\u{1B}")   // false (escape)
    /// ```
    package static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    private static func escape(_ text: String, inAttribute: Bool) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let replacement: String?
            switch scalar {
            case "&": replacement = "&amp;"
            case "<": replacement = "&lt;"
            case ">": replacement = "&gt;"
            case "\r": replacement = "&#13;"
            case "\"" where inAttribute: replacement = "&quot;"
            case "'" where inAttribute: replacement = "&apos;"
            case "\n" where inAttribute: replacement = "&#10;"
            case "\t" where inAttribute: replacement = "&#9;"
            default: replacement = isAllowed(scalar) ? nil : "\u{FFFD}"
            }
            if let replacement {
                result.append(contentsOf: replacement.unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
