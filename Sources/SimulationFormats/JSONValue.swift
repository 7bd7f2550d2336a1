/// A JSON document or any part of one, with ordered objects and exact 64-bit integers.
///
/// `JSONValue` is what ``JSONParser`` produces and ``JSONWriter`` consumes. Objects keep their
/// members in insertion order (see ``JSONObject``), so a report built in a fixed order is written
/// in that order, byte for byte, on every platform.
///
/// ```swift
/// let report: JSONValue = [
///     "schemaVersion": 1,
///     "seed": "0x00000000000000ff",
///     "summary": ["runs": 100, "passed": 99, "failed": 1],
/// ]
/// print(report["summary"]?["failed"]?.intValue ?? 0)   // 1
/// ```
///
/// Contract:
/// - Numbers written without a fraction or exponent that fit in `Int64` are `.int`; every other
///   number is `.double`. `.int(1)` and `.double(1.0)` are different values (and are written
///   differently: `1` and `1.0`).
/// - The parser never produces a non-finite `.double`; ``JSONWriter`` writes one as `null`.
/// - Equality is structural; object equality is order-sensitive (see ``JSONObject``). Strings
///   compare as Swift `String`s, that is by Unicode canonical equivalence.
package enum JSONValue: Hashable, Sendable {
    /// The JSON literal `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without a fraction or exponent that fits in `Int64`.
    case int(Int64)
    /// Any other number: one with a fraction or exponent, or an integer beyond `Int64`.
    case double(Double)
    /// A string (any Unicode text; escapes are resolved).
    case string(String)
    /// An array, in document order.
    case array([JSONValue])
    /// An object, with members in document (insertion) order.
    case object(JSONObject)
}

extension JSONValue {
    /// Whether this is `null`.
    ///
    /// ```swift
    /// JSONValue.null.isNull   // true
    /// ```
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The Boolean, if this is `.bool`; otherwise `nil`.
    ///
    /// ```swift
    /// JSONValue.bool(true).boolValue   // true
    /// ```
    package var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The integer, if this is `.int`; otherwise `nil` (a `.double` is not converted).
    ///
    /// ```swift
    /// JSONValue.int(42).intValue   // 42
    /// ```
    package var intValue: Int64? {
        if case .int(let value) = self { return value }
        return nil
    }

    /// The number as a `Double`, if this is `.double` or `.int`; otherwise `nil`.
    ///
    /// ```swift
    /// JSONValue.int(3).doubleValue   // 3.0
    /// ```
    ///
    /// An `.int` beyond ±2^53 is rounded to the nearest `Double`.
    package var doubleValue: Double? {
        switch self {
        case .double(let value): return value
        case .int(let value): return Double(value)
        default: return nil
        }
    }

    /// The string, if this is `.string`; otherwise `nil`.
    ///
    /// ```swift
    /// JSONValue.string("pass").stringValue   // "pass"
    /// ```
    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements, if this is `.array`; otherwise `nil`.
    ///
    /// ```swift
    /// JSONValue.array([1, 2]).arrayValue?.count   // 2
    /// ```
    package var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The object, if this is `.object`; otherwise `nil`.
    ///
    /// ```swift
    /// let value: JSONValue = ["runs": 10]
    /// value.objectValue?.keys   // ["runs"]
    /// ```
    package var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The member named `key`, if this is an object that has one; otherwise `nil`.
    ///
    /// ```swift
    /// let value: JSONValue = ["tool": ["name": "bgsim"]]
    /// value["tool"]?["name"]   // .string("bgsim")
    /// ```
    package subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The element at `index`, if this is an array and the index is in bounds; otherwise `nil`.
    ///
    /// ```swift
    /// let value: JSONValue = [10, 20]
    /// value[1]    // .int(20)
    /// value[5]    // nil (never traps)
    /// ```
    package subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON, for logs and test failure messages.
    ///
    /// ```swift
    /// let value: JSONValue = ["runs": 3]
    /// print(value)   // {"runs":3}
    /// ```
    package var description: String {
        JSONWriter(style: .compact).string(for: self)
    }
}
