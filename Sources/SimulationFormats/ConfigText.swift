/// Wording shared by the config readers: paths, found values and expectations.
enum ConfigText {
    /// `$.a` for identifier-like keys, `$["odd key"]` otherwise.
    static func path(_ path: String, appending key: String) -> String {
        isIdentifier(key) ? "\(path).\(key)" : "\(path)[\(JSONWriter.quoted(key))]"
    }

    static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !isDigit(first) else { return false }
        return key.utf8.allSatisfy { byte in
            isDigit(byte) || byte == UInt8(ascii: "_")
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// A key for use in prose: `'runs'`.
    static func key(_ key: String) -> String {
        "'\(key.count > 60 ? String(key.prefix(60)) + "…" : key)'"
    }

    /// How a found value reads in a message: `-5`, `"abc" (a string)`, `an object`.
    static func found(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return "\(flag) (a boolean)"
        case .int(let integer): return String(integer)
        case .double(let double): return JSONWriter.text(for: double) ?? "null"
        case .string(let text):
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return "\(JSONWriter.quoted(shown)) (a string)"
        case .array(let elements):
            return elements.isEmpty ? "an empty array" : "an array of \(elements.count) element\(elements.count == 1 ? "" : "s")"
        case .object(let object):
            return object.isEmpty ? "an empty object" : "an object"
        }
    }

    /// A number for prose: whole numbers without `.0` (`1`, `0.25`, `1e+20`).
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return JSONWriter.text(for: value) ?? String(describing: value)
    }

    /// `an integer from 1 to 100`, `an integer of at least 1`, …
    static func integer(in range: ClosedRange<Int>) -> String {
        switch (range.lowerBound == .min, range.upperBound == .max) {
        case (true, true): return "an integer"
        case (false, true): return "an integer of at least \(range.lowerBound)"
        case (true, false): return "an integer of at most \(range.upperBound)"
        case (false, false): return "an integer from \(range.lowerBound) to \(range.upperBound)"
        }
    }

    /// `a number from 0 to 1`, `a number of at least 0`, …
    static func number(in range: ClosedRange<Double>) -> String {
        let low = range.lowerBound, high = range.upperBound
        switch (low == -.infinity || low == -Double.greatestFiniteMagnitude,
                high == .infinity || high == Double.greatestFiniteMagnitude) {
        case (true, true): return "a number"
        case (false, true): return "a number of at least \(number(low))"
        case (true, false): return "a number of at most \(number(high))"
        case (false, false): return "a number from \(number(low)) to \(number(high))"
        }
    }

    /// `"fast", "slow"`.
    static func list(_ values: [String]) -> String {
        values.map { JSONWriter.quoted($0) }.joined(separator: ", ")
    }
}
