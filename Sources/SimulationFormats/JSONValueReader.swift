/// One value of an input file, with its path, read with precise errors.
///
/// Array elements and raw members come back as `JSONValueReader`s; the typed and range-checked
/// reads here throw ``ConfigError``s that name the file, the path and the fix.
///
/// ```swift
/// var scenario = try JSONObjectReader.parse(bytes, file: "Scenarios/smoke.json")
/// for item in try scenario.array("invariants") {
///     let id = try item.read(as: String.self)        // error path: $.invariants[2]
/// }
/// ```
///
/// Contract:
/// - Reads never trap; every mismatch is a ``ConfigError`` at ``path``.
/// - Integers accept whole-number doubles (`1e6`); numbers accept integers.
/// - Default fixes read `Set 'runs' to …`; pass `fix:` to say something domain-specific.
package struct JSONValueReader: Sendable {
    /// The value being read.
    package let value: JSONValue
    /// The file it came from, as the user named it.
    package let file: String
    /// Its JSON path, such as `$.invariants[2]`.
    package let path: String
    /// How fixes name it: `runs`, `invariants[2]`; empty for the top-level value.
    let name: String

    /// `'runs'`, or `the top-level value`.
    var label: String { name.isEmpty ? "the top-level value" : ConfigText.key(name) }

    /// Creates a reader for a value at `path` (the top-level value by default).
    ///
    /// ```swift
    /// let root = JSONValueReader(try JSONParser().parse(bytes), file: "x.json")
    /// ```
    package init(_ value: JSONValue, file: String, path: String = "$") {
        self.init(value, file: file, path: path, name: path == "$" ? "" : path)
    }

    init(_ value: JSONValue, file: String, path: String, name: String) {
        self.value = value
        self.file = file
        self.path = path
        self.name = name
    }

    /// An error about this value, for checks the typed reads do not cover.
    ///
    /// ```swift
    /// throw item.error("unknown invariant \"nope\"", fix: "Run `bgsim list` to see the ids.")
    /// ```
    package func error(_ problem: String, fix: String) -> ConfigError {
        ConfigError(file: file, path: path, problem: problem, fix: fix)
    }

    /// Reads the value as `T`.
    ///
    /// ```swift
    /// let name = try item.read(as: String.self)
    /// // x.json: $.name: expected a string, found 5. Set 'name' to a string.
    /// ```
    ///
    /// - Throws: ``ConfigError`` if the value is not a `T`.
    package func read<T: JSONReadable>(as type: T.Type = T.self, fix: String? = nil) throws(ConfigError) -> T {
        guard let result = T(json: value) else {
            throw mismatch(expected: T.expectedDescription, fix: fix) { T(json: $0) != nil }
        }
        return result
    }

    /// Reads an integer within `range`.
    ///
    /// ```swift
    /// let runs = try item.int(in: 1...10_000_000, fix: "Set a positive number of runs.")
    /// // x.json: $.campaign.runs: expected an integer from 1 to 10000000, found -5. Set a positive number of runs.
    /// ```
    ///
    /// - Throws: ``ConfigError`` if the value is not an integer or is outside `range`.
    package func int(in range: ClosedRange<Int>, fix: String? = nil) throws(ConfigError) -> Int {
        let expected = ConfigText.integer(in: range)
        guard let integer = Int(json: value) else {
            throw mismatch(expected: expected, fix: fix) { Int(json: $0).map(range.contains) == true }
        }
        guard range.contains(integer) else {
            throw error("expected \(expected), found \(integer)", fix: fix ?? "Set \(label) to \(expected).")
        }
        return integer
    }

    /// Reads a number within `range`.
    ///
    /// ```swift
    /// let seconds = try item.double(in: 0...86_400)
    /// ```
    ///
    /// - Throws: ``ConfigError`` if the value is not a number or is outside `range`.
    package func double(in range: ClosedRange<Double>, fix: String? = nil) throws(ConfigError) -> Double {
        try number(in: range, expected: ConfigText.number(in: range), fix: fix)
    }

    /// Reads a probability: a number from 0 to 1.
    ///
    /// ```swift
    /// let rate = try item.probability()
    /// // x.json: $.faults.crash: expected a probability from 0 to 1, found 1.5. Set 'crash' to …
    /// ```
    ///
    /// - Throws: ``ConfigError`` if the value is not a number from 0 to 1.
    package func probability(fix: String? = nil) throws(ConfigError) -> Double {
        try number(in: 0...1, expected: "a probability from 0 to 1", fix: fix)
    }

    private func number(in range: ClosedRange<Double>, expected: String, fix: String?) throws(ConfigError) -> Double {
        guard let number = Double(json: value) else {
            throw mismatch(expected: expected, fix: fix) { Double(json: $0).map(range.contains) == true }
        }
        guard range.contains(number) else {
            throw error("expected \(expected), found \(ConfigText.found(value))", fix: fix ?? "Set \(label) to \(expected).")
        }
        return number
    }

    /// Reads a string that must be one of `allowed`.
    ///
    /// ```swift
    /// let mode = try item.string(oneOf: ["fast", "slow"])
    /// // x.json: $.mode: expected one of "fast", "slow", found "fsat". Did you mean "fast"?
    /// ```
    ///
    /// - Throws: ``ConfigError`` listing the allowed values (and the nearest one, if close).
    package func string(oneOf allowed: [String], fix: String? = nil) throws(ConfigError) -> String {
        let expected = "one of \(ConfigText.list(allowed))"
        guard case .string(let text) = value else { throw mismatch(expected: expected, fix: fix) }
        guard allowed.contains(text) else {
            let suggestion = NearestName.suggestion(for: text, among: allowed)
            let defaultFix = suggestion.map { "Did you mean \(JSONWriter.quoted($0))?" }
                ?? "Set \(label) to one of the listed values."
            throw error("expected \(expected), found \(JSONWriter.quoted(text))", fix: fix ?? defaultFix)
        }
        return text
    }

    /// Reads a string that must be one of `allowed`, with a fix that depends on what was found
    /// (nil: the nearest allowed name, as ``string(oneOf:fix:)``).
    ///
    /// ```swift
    /// let name = try item.string(oneOf: ["ios17"], fixFor: { $0 == "ios18" ? "iOS 18 is ios17's family." : nil })
    /// ```
    package func string(oneOf allowed: [String], fixFor: (String) -> String?) throws(ConfigError) -> String {
        let found = if case .string(let text) = value { text } else { "" }
        return try string(oneOf: allowed, fix: allowed.contains(found) ? nil : fixFor(found))
    }

    /// Reads a string naming a case of `E` by its raw value.
    ///
    /// ```swift
    /// enum Expiry: String, CaseIterable { case strict, lenient }
    /// let expiry = try item.choice(Expiry.self)
    /// ```
    ///
    /// - Throws: ``ConfigError`` listing the raw values in declaration order.
    package func choice<E: RawRepresentable & CaseIterable>(_ type: E.Type, fix: String? = nil) throws(ConfigError) -> E
    where E.RawValue == String {
        let allowed = E.allCases.map(\.rawValue)
        let text = try string(oneOf: allowed, fix: fix)
        guard let result = E(rawValue: text) else {
            throw error("\(JSONWriter.quoted(text)) is not a valid value", fix: fix ?? "Set \(label) to one of \(ConfigText.list(allowed)).")
        }
        return result
    }

    /// Reads an object, as a reader that tracks which keys are read.
    ///
    /// ```swift
    /// var environment = try item.object()
    /// ```
    ///
    /// - Throws: ``ConfigError`` if the value is not an object.
    package func object() throws(ConfigError) -> JSONObjectReader {
        guard case .object(let object) = value else {
            throw mismatch(expected: "an object", fix: nil)
        }
        return JSONObjectReader(object: object, file: file, path: path, name: name)
    }

    /// Reads an array, as one reader per element with paths `…[0]`, `…[1]`, ….
    ///
    /// ```swift
    /// let ids = try item.array().map { element throws(ConfigError) in try element.read(as: String.self) }
    /// ```
    ///
    /// - Throws: ``ConfigError`` if the value is not an array.
    package func array() throws(ConfigError) -> [JSONValueReader] {
        guard case .array(let elements) = value else {
            throw mismatch(expected: "an array", fix: nil)
        }
        return elements.enumerated().map { index, element in
            JSONValueReader(element, file: file, path: "\(path)[\(index)]", name: "\(name)[\(index)]")
        }
    }

    /// Reads an array whose elements are all `T`.
    ///
    /// ```swift
    /// let ids = try item.array(of: String.self)
    /// ```
    ///
    /// - Throws: ``ConfigError`` at the first element that is not a `T`.
    package func array<T: JSONReadable>(of type: T.Type, fix: String? = nil) throws(ConfigError) -> [T] {
        var result: [T] = []
        for element in try array() {
            result.append(try element.read(as: T.self, fix: fix))
        }
        return result
    }

    /// The error for a value of the wrong type; `wouldAccept` tells whether the text of a
    /// quoted value, unquoted, would have been accepted (`"5"` for a count).
    func mismatch(
        expected: String, fix: String?, wouldAccept: (JSONValue) -> Bool = { _ in false }
    ) -> ConfigError {
        var defaultFix = "Set \(label) to \(expected)."
        if case .string(let text) = value, let unquoted = try? JSONParser(maxDepth: 0).parse(text),
            wouldAccept(unquoted) {
            defaultFix = "Remove the quotes: write \(text), not \(JSONWriter.quoted(text))."
        }
        return error("expected \(expected), found \(ConfigText.found(value))", fix: fix ?? defaultFix)
    }
}

// Lenient reading by path, for documents whose extra keys are allowed (reports to merge).
extension JSONValueReader {
    /// The value at `keys` below this one, without tracking which keys were read (unlike
    /// ``JSONObjectReader``, which scenario files use to reject unknown keys).
    ///
    /// ```swift
    /// let report = JSONValueReader(value, file: "report 2")
    /// let runs = try report.member("summary", "runs").read(as: Int.self)
    /// // report 2: $.summary.runs: missing required key 'runs'. Add "runs" with a value.
    /// ```
    ///
    /// - Throws: ``ConfigError`` at the first missing key's full path, or at the first value on
    ///   the way that is not an object.
    package func member(_ keys: String...) throws(ConfigError) -> JSONValueReader {
        try member(path: keys)
    }

    /// ``member(_:)`` with the keys as an array.
    package func member(path keys: [String]) throws(ConfigError) -> JSONValueReader {
        var current = self
        for key in keys {
            let object = try current.object()
            let path = object.path(of: key)
            guard let value = object.object[key] else {
                throw ConfigError(file: file, path: path, problem: "missing required key \(ConfigText.key(key))",
                                  fix: "Add \(JSONWriter.quoted(key)) with a value.")
            }
            current = JSONValueReader(value, file: file, path: path, name: key)
        }
        return current
    }
}
