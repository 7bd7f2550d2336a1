/// A type that ``JSONValueReader`` and ``JSONObjectReader`` can read from a JSON value.
///
/// ```swift
/// var campaign = try JSONObjectReader(["runs": 10, "name": "smoke"], file: "x.json")
/// let runs = try campaign.required("runs", as: Int.self)       // 10
/// let name: String = try campaign.required("name")             // "smoke"
/// ```
///
/// Contract:
/// - `init(json:)` returns `nil` when the value has the wrong type or cannot be represented
///   exactly; the readers turn that into a ``ConfigError`` that quotes ``expectedDescription``.
/// - Conforming types: `Bool`, `String`, `Int`, `Int64`, `Double`, and `JSONValue` (any value).
///   Integers accept `.int` and integral `.double` values in range (so `1e6` is a valid count);
///   `Double` accepts both number cases.
package protocol JSONReadable: Sendable {
    /// What a valid value looks like, for error messages: `an integer`, `a string`.
    static var expectedDescription: String { get }

    /// Reads `value`, or returns `nil` if it has the wrong type or is out of this type's range.
    init?(json value: JSONValue)
}

extension Bool: JSONReadable {
    /// `true or false`.
    package static var expectedDescription: String { "true or false" }

    /// Reads `.bool`.
    ///
    /// ```swift
    /// Bool(json: .bool(true))   // true
    /// ```
    package init?(json value: JSONValue) {
        guard case .bool(let flag) = value else { return nil }
        self = flag
    }
}

extension String: JSONReadable {
    /// `a string`.
    package static var expectedDescription: String { "a string" }

    /// Reads `.string`.
    ///
    /// ```swift
    /// String(json: .string("pass"))   // "pass"
    /// ```
    package init?(json value: JSONValue) {
        guard case .string(let text) = value else { return nil }
        self = text
    }
}

extension Int64: JSONReadable {
    /// `an integer`.
    package static var expectedDescription: String { "an integer" }

    /// Reads `.int`, or a `.double` that is a whole number within `Int64`.
    ///
    /// ```swift
    /// Int64(json: .double(1e6))   // 1_000_000
    /// Int64(json: .double(2.5))   // nil
    /// ```
    package init?(json value: JSONValue) {
        switch value {
        case .int(let integer): self = integer
        case .double(let double):
            guard let exact = Int64(exactly: double) else { return nil }
            self = exact
        default: return nil
        }
    }
}

extension Int: JSONReadable {
    /// `an integer`.
    package static var expectedDescription: String { "an integer" }

    /// Reads `.int`, or a `.double` that is a whole number, within `Int`.
    ///
    /// ```swift
    /// Int(json: .int(42))   // 42
    /// ```
    package init?(json value: JSONValue) {
        guard let wide = Int64(json: value), let exact = Int(exactly: wide) else { return nil }
        self = exact
    }
}

extension Double: JSONReadable {
    /// `a number`.
    package static var expectedDescription: String { "a number" }

    /// Reads `.double` or `.int` (an `.int` beyond ±2^53 is rounded).
    ///
    /// ```swift
    /// Double(json: .int(3))   // 3.0
    /// ```
    package init?(json value: JSONValue) {
        guard let number = value.doubleValue else { return nil }
        self = number
    }
}

extension JSONValue: JSONReadable {
    /// `a JSON value`.
    package static var expectedDescription: String { "a JSON value" }

    /// Reads any value unchanged.
    ///
    /// ```swift
    /// JSONValue(json: [1, 2])   // .array([1, 2])
    /// ```
    package init?(json value: JSONValue) {
        self = value
    }
}
