// Literal conformances, so reports read like the JSON they produce.

extension JSONValue: ExpressibleByNilLiteral {
    /// Creates `null` from `nil`.
    ///
    /// ```swift
    /// let value: JSONValue = nil   // .null
    /// ```
    package init(nilLiteral: ()) {
        self = .null
    }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// Creates `.bool` from `true` or `false`.
    ///
    /// ```swift
    /// let value: JSONValue = true   // .bool(true)
    /// ```
    package init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// Creates `.int` from an integer literal.
    ///
    /// ```swift
    /// let value: JSONValue = 42   // .int(42)
    /// ```
    package init(integerLiteral value: Int64) {
        self = .int(value)
    }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// Creates `.double` from a floating-point literal.
    ///
    /// ```swift
    /// let value: JSONValue = 0.25   // .double(0.25)
    /// ```
    package init(floatLiteral value: Double) {
        self = .double(value)
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// Creates `.string` from a string literal (interpolation is supported too).
    ///
    /// ```swift
    /// let value: JSONValue = "bgsim"   // .string("bgsim")
    /// ```
    package init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// Creates `.array` from an array literal, in order.
    ///
    /// ```swift
    /// let value: JSONValue = [1, "two", nil]
    /// ```
    package init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Creates `.object` from a dictionary literal, keeping the literal's order.
    ///
    /// ```swift
    /// let value: JSONValue = ["schemaVersion": 1, "seed": "0x00000000000000ff"]
    /// value.objectValue?.keys   // ["schemaVersion", "seed"]
    /// ```
    ///
    /// - Precondition: no key appears twice (a literal with a repeated key is a programming error).
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(uniqueMembers: elements))
    }
}

extension JSONValue {
    /// Creates `.int` from a platform integer.
    ///
    /// ```swift
    /// let runs = 100
    /// let value = JSONValue(runs)   // .int(100)
    /// ```
    package init(_ value: Int) {
        self = .int(Int64(value))
    }

    /// Creates `.double` from a `Double` (a non-finite one is written as `null`).
    ///
    /// ```swift
    /// let value = JSONValue(2.5)   // .double(2.5)
    /// ```
    package init(_ value: Double) {
        self = .double(value)
    }

    /// Creates `.string` from a string.
    ///
    /// ```swift
    /// let name = "smoke"
    /// let value = JSONValue(name)   // .string("smoke")
    /// ```
    package init(_ value: String) {
        self = .string(value)
    }

    /// Creates `.bool` from a Boolean.
    ///
    /// ```swift
    /// let value = JSONValue(false)   // .bool(false)
    /// ```
    package init(_ value: Bool) {
        self = .bool(value)
    }
}
