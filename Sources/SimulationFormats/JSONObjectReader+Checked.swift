// Range-checked numbers, probabilities and enumerations, required and optional.

extension JSONObjectReader {
    /// Reads a required integer within `range`.
    ///
    /// ```swift
    /// let runs = try campaign.int("runs", in: 1...10_000_000, fix: "Set a positive number of runs.")
    /// // x.json: $.campaign.runs: expected an integer from 1 to 10000000, found -5. Set a positive number of runs.
    /// ```
    ///
    /// - Throws: ``ConfigError`` if the key is missing, `null`, not an integer, or out of range.
    package mutating func int(_ key: String, in range: ClosedRange<Int>, fix: String? = nil) throws(ConfigError) -> Int {
        try requiredValue(key, expected: ConfigText.integer(in: range)).int(in: range, fix: fix)
    }

    /// Reads an optional integer within `range`; `nil` if missing or `null`.
    ///
    /// ```swift
    /// let jobs = try options.optionalInt("jobs", in: 1...256) ?? 1
    /// ```
    ///
    /// - Throws: ``ConfigError`` if present and not an integer in range.
    package mutating func optionalInt(_ key: String, in range: ClosedRange<Int>, fix: String? = nil) throws(ConfigError) -> Int? {
        try value(key)?.int(in: range, fix: fix)
    }

    /// Reads a required number within `range`.
    ///
    /// ```swift
    /// let horizon = try campaign.double("horizonSeconds", in: 1...86_400)
    /// ```
    ///
    /// - Throws: ``ConfigError`` if the key is missing, `null`, not a number, or out of range.
    package mutating func double(_ key: String, in range: ClosedRange<Double>, fix: String? = nil) throws(ConfigError) -> Double {
        try requiredValue(key, expected: ConfigText.number(in: range)).double(in: range, fix: fix)
    }

    /// Reads an optional number within `range`; `nil` if missing or `null`.
    ///
    /// ```swift
    /// let lead = try profile.optionalDouble("expiryLeadSeconds", in: 0...60) ?? 5
    /// ```
    ///
    /// - Throws: ``ConfigError`` if present and not a number in range.
    package mutating func optionalDouble(_ key: String, in range: ClosedRange<Double>, fix: String? = nil) throws(ConfigError) -> Double? {
        try value(key)?.double(in: range, fix: fix)
    }

    /// Reads a required probability (a number from 0 to 1).
    ///
    /// ```swift
    /// let crash = try faults.probability("crash")
    /// // x.json: $.environment.faults.crash: expected a probability from 0 to 1, found 1.5. Set 'crash' to a probability from 0 to 1.
    /// ```
    ///
    /// - Throws: ``ConfigError`` if the key is missing, `null`, not a number, or outside 0...1.
    package mutating func probability(_ key: String, fix: String? = nil) throws(ConfigError) -> Double {
        try requiredValue(key, expected: "a probability from 0 to 1").probability(fix: fix)
    }

    /// Reads an optional probability; `nil` if missing or `null`.
    ///
    /// ```swift
    /// let hang = try faults.optionalProbability("hang") ?? 0
    /// ```
    ///
    /// - Throws: ``ConfigError`` if present and not a number from 0 to 1.
    package mutating func optionalProbability(_ key: String, fix: String? = nil) throws(ConfigError) -> Double? {
        try value(key)?.probability(fix: fix)
    }

    /// Reads a required string that must be one of `allowed`.
    ///
    /// ```swift
    /// let family = try profile.string("family", oneOf: ["ios17", "ios18"])
    /// // x.json: $.profile.family: expected one of "ios17", "ios18", found "ios81". Did you mean "ios18"?
    /// ```
    ///
    /// - Throws: ``ConfigError`` listing the allowed values and the nearest one, if close.
    package mutating func string(_ key: String, oneOf allowed: [String], fix: String? = nil) throws(ConfigError) -> String {
        try requiredValue(key, expected: "one of \(ConfigText.list(allowed))").string(oneOf: allowed, fix: fix)
    }

    /// Reads a required string that must be one of `allowed`, with a fix that depends on what was
    /// found (``JSONValueReader/string(oneOf:fixFor:)``).
    package mutating func string(
        _ key: String, oneOf allowed: [String], fixFor: (String) -> String?
    ) throws(ConfigError) -> String {
        try requiredValue(key, expected: "one of \(ConfigText.list(allowed))").string(oneOf: allowed, fixFor: fixFor)
    }

    /// Reads a required enumeration case by its raw string value.
    ///
    /// ```swift
    /// enum Variant: String, CaseIterable { case correct, leaky }
    /// let variant = try workload.choice("variant", as: Variant.self)
    /// ```
    ///
    /// - Throws: ``ConfigError`` listing the raw values in declaration order.
    package mutating func choice<E: RawRepresentable & CaseIterable>(
        _ key: String, as type: E.Type, fix: String? = nil
    ) throws(ConfigError) -> E where E.RawValue == String {
        let expected = "one of \(ConfigText.list(E.allCases.map(\.rawValue)))"
        return try requiredValue(key, expected: expected).choice(E.self, fix: fix)
    }

    /// Reads an optional enumeration case; `nil` if missing or `null`.
    ///
    /// ```swift
    /// let variant = try workload.optionalChoice("variant", as: Variant.self) ?? .correct
    /// ```
    ///
    /// - Throws: ``ConfigError`` if present and not one of the raw values.
    package mutating func optionalChoice<E: RawRepresentable & CaseIterable>(
        _ key: String, as type: E.Type, fix: String? = nil
    ) throws(ConfigError) -> E? where E.RawValue == String {
        try value(key)?.choice(E.self, fix: fix)
    }
}
