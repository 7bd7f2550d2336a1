/// Deterministic JSON serialization: the same value gives the same bytes on every platform.
///
/// Used for reports and anything else a test or a CI job compares byte for byte.
///
/// ```swift
/// let report: JSONValue = ["schemaVersion": 1, "seed": "0x000000000000002a", "ratio": 0.5,
///                          "tags": [], "tool": ["name": "bgsim"]]
/// print(JSONWriter().string(for: report), terminator: "")
/// // {
/// //   "schemaVersion": 1,
/// //   "seed": "0x000000000000002a",
/// //   "ratio": 0.5,
/// //   "tags": [],
/// //   "tool": {
/// //     "name": "bgsim"
/// //   }
/// // }
/// JSONWriter(style: .compact).string(for: report)
/// // {"schemaVersion":1,"seed":"0x000000000000002a","ratio":0.5,"tags":[],"tool":{"name":"bgsim"}}
/// ```
///
/// Contract:
/// - Object members are written in insertion order; nothing is sorted or reordered.
/// - `.pretty`: two-space indentation, `"key": value`, one element or member per line, empty
///   containers as `[]` and `{}`, and a final newline. `.compact`: no whitespace, no final newline.
/// - Strings: `"` and `\` are escaped; U+0008, U+0009, U+000A, U+000C, U+000D as `\b \t \n \f \r`;
///   other control characters below U+0020 as `\u00xx` (lowercase hex). Nothing else is escaped:
///   `/` stays `/`, and non-ASCII text is written as UTF-8. (This is the string form of RFC 8785
///   and of ECMAScript's `JSON.stringify`.)
/// - `.int` is written in decimal. A finite `.double` is written as Swift's shortest round-trip
///   `description` (for example `0.1`, `1e-05`, `1e+16`), with `.0` appended when that text has
///   no `.` or exponent, so `.double(3)` is written `3.0` and parses back as `.double`, not
///   `.int`. A non-finite `.double` (infinity, NaN) is written as `null`, since JSON cannot
///   represent it; the parser never produces one.
/// - `JSONParser().parse(writer.bytes(for: v)) == v` for every `v` without non-finite doubles.
/// - Recursion depth equals the value's nesting depth (bounded by the parser's limit for parsed
///   values).
package struct JSONWriter: Sendable {
    /// Whitespace layout.
    package enum Style: Sendable, Hashable {
        /// Two-space indentation, one item per line, final newline.
        case pretty
        /// No whitespace at all and no final newline.
        case compact
    }

    /// The layout this writer produces.
    package var style: Style

    /// Creates a writer.
    ///
    /// ```swift
    /// let writer = JSONWriter(style: .compact)
    /// ```
    package init(style: Style = .pretty) {
        self.style = style
    }

    /// Serializes `value` to UTF-8 bytes.
    ///
    /// ```swift
    /// JSONWriter(style: .compact).bytes(for: ["a": [1, true]])   // Array(#"{"a":[1,true]}"#.utf8)
    /// ```
    package func bytes(for value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(value, indent: 0, into: &output)
        if style == .pretty { output.append(UInt8(ascii: "\n")) }
        return output
    }

    /// Serializes `value` to a string (the UTF-8 of ``bytes(for:)``).
    ///
    /// ```swift
    /// JSONWriter(style: .compact).string(for: ["ok": true])   // {"ok":true}
    /// ```
    package func string(for value: JSONValue) -> String {
        String(decoding: bytes(for: value), as: UTF8.self)
    }

    /// `string` as a JSON string literal, escaped as described above.
    ///
    /// ```swift
    /// print(JSONWriter.quoted("say \"hi\"\n"))   // "say \"hi\"\n"
    /// ```
    package static func quoted(_ string: String) -> String {
        var output: [UInt8] = []
        writeString(string, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// The text written for a `Double`, or `nil` for a non-finite one (written as `null`).
    ///
    /// ```swift
    /// JSONWriter.text(for: 3)       // "3.0"
    /// JSONWriter.text(for: 1e-5)    // "1e-05"
    /// JSONWriter.text(for: .nan)    // nil
    /// ```
    package static func text(for double: Double) -> String? {
        guard double.isFinite else { return nil }
        let text = double.description
        if text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") }) {
            return text
        }
        return text + ".0"
    }

    private func write(_ value: JSONValue, indent: Int, into output: inout [UInt8]) {
        switch value {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let flag):
            output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let integer):
            output.append(contentsOf: String(integer).utf8)
        case .double(let double):
            output.append(contentsOf: (Self.text(for: double) ?? "null").utf8)
        case .string(let string):
            Self.writeString(string, into: &output)
        case .array(let elements):
            writeContainer(open: "[", close: "]", count: elements.count, indent: indent, into: &output) {
                index, output in
                write(elements[index], indent: indent + 1, into: &output)
            }
        case .object(let object):
            let members = object.members
            writeContainer(open: "{", close: "}", count: members.count, indent: indent, into: &output) {
                index, output in
                Self.writeString(members[index].key, into: &output)
                output.append(UInt8(ascii: ":"))
                if style == .pretty { output.append(UInt8(ascii: " ")) }
                write(members[index].value, indent: indent + 1, into: &output)
            }
        }
    }

    private func writeContainer(
        open: Unicode.Scalar, close: Unicode.Scalar, count: Int, indent: Int,
        into output: inout [UInt8], item: (Int, inout [UInt8]) -> Void
    ) {
        output.append(UInt8(ascii: open))
        guard count > 0 else {
            output.append(UInt8(ascii: close))
            return
        }
        for index in 0..<count {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            newline(indent: indent + 1, into: &output)
            item(index, &output)
        }
        newline(indent: indent, into: &output)
        output.append(UInt8(ascii: close))
    }

    private func newline(indent: Int, into output: inout [UInt8]) {
        guard style == .pretty else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func writeString(_ string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x08: output.append(contentsOf: #"\b"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0C: output.append(contentsOf: #"\f"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x00..<0x20:
                output.append(contentsOf: #"\u00"#.utf8)
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
