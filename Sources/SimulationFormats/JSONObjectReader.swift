/// Reads a JSON object from an input file key by key, and rejects the keys nobody read.
///
/// Scenario files are strict: a misspelled key is an error, not a silently ignored setting. Each
/// accessor records its key as known; ``finish()`` then fails on the first key that no accessor
/// asked for, suggesting the nearest known key.
///
/// ```swift
/// var scenario = try JSONObjectReader.parse(bytes, file: "Scenarios/smoke.json")
/// let name = try scenario.required("name", as: String.self)
/// var campaign = try scenario.object("campaign")
/// let runs = try campaign.int("runs", in: 1...10_000_000, fix: "Set a positive number of runs.")
/// let horizon = try campaign.optionalDouble("horizonSeconds", in: 1...86_400) ?? 600
/// try campaign.finish()
/// // Scenarios/smoke.json: $.campaign.horizonSecond: unknown key 'horizonSecond'. Did you mean
/// // 'horizonSeconds'? Keys allowed in $.campaign: runs, horizonSeconds.
/// try scenario.finish()
/// ```
///
/// Contract:
/// - Every error is a ``ConfigError`` naming the file and the JSON path (`$.campaign.runs`,
///   `$.invariants[2]`); nothing traps.
/// - `required…` throws for a missing key or `null`; `optional…` returns `nil` for a missing key
///   or `null`, and throws for a present value of the wrong type or out of range.
/// - Known keys are those passed to any accessor (read or not, present or not) or to
///   ``allow(_:)``. Nested readers track their own keys: call `finish()` on each.
package struct JSONObjectReader: Sendable {
    /// The object being read.
    package let object: JSONObject
    /// The file it came from, as the user named it.
    package let file: String
    /// Its JSON path, such as `$.campaign`.
    package let path: String
    /// How fixes name it (`campaign`, `invariants[2]`); empty for the top-level value.
    let name: String
    /// The keys accessors have asked for, in first-asked order.
    package private(set) var knownKeys: [String] = []

    /// Creates a reader for an object value at `path` (the top level by default).
    ///
    /// ```swift
    /// var root = try JSONObjectReader(try JSONParser().parse(bytes), file: "x.json")
    /// ```
    ///
    /// - Throws: ``ConfigError`` if `value` is not an object.
    package init(_ value: JSONValue, file: String, path: String = "$") throws(ConfigError) {
        self = try JSONValueReader(value, file: file, path: path).object()
    }

    init(object: JSONObject, file: String, path: String, name: String) {
        self.object = object
        self.file = file
        self.path = path
        self.name = name
    }

    /// Parses `bytes` and reads the top-level object.
    ///
    /// ```swift
    /// var scenario = try JSONObjectReader.parse(bytes, file: "Scenarios/smoke.json")
    /// // Scenarios/smoke.json:4:3: expected ',' or '}' after an object member, found '"'. Add a ',' …
    /// ```
    ///
    /// - Throws: ``ConfigError`` for a syntax error (with line and column) or a non-object document.
    package static func parse(
        _ bytes: some Collection<UInt8>, file: String, parser: JSONParser = JSONParser()
    ) throws(ConfigError) -> JSONObjectReader {
        let value: JSONValue
        do {
            value = try parser.parse(bytes)
        } catch {
            throw ConfigError(file: file, parseError: error)
        }
        return try JSONObjectReader(value, file: file)
    }

    /// The path of the member `key`: `$.campaign.runs`, or `$["odd key"]`.
    ///
    /// ```swift
    /// campaign.path(of: "runs")   // "$.campaign.runs"
    /// ```
    package func path(of key: String) -> String {
        ConfigText.path(path, appending: key)
    }

    /// An error about the member `key` (or about this object, if `key` is `nil`).
    ///
    /// ```swift
    /// throw campaign.error(at: "seed", problem: "the seed \"0xZZ\" is not hexadecimal",
    ///                      fix: "Write the seed as 0x and 16 hex digits.")
    /// ```
    package func error(at key: String?, problem: String, fix: String) -> ConfigError {
        ConfigError(file: file, path: key.map(path(of:)) ?? path, problem: problem, fix: fix)
    }

    /// Marks keys as known without reading them (for keys that are accepted but unused).
    ///
    /// ```swift
    /// scenario.allow("$schema", "description")
    /// ```
    package mutating func allow(_ keys: String...) {
        for key in keys { remember(key) }
    }

    /// The member `key` as a value reader, or `nil` if it is missing or `null`.
    ///
    /// ```swift
    /// if let expect = scenario.value("expect") { … }
    /// ```
    package mutating func value(_ key: String) -> JSONValueReader? {
        remember(key)
        guard let value = object[key], !value.isNull else { return nil }
        return JSONValueReader(value, file: file, path: path(of: key), name: key)
    }

    /// The member `key` as a value reader; `expected` describes it in the missing-key error.
    ///
    /// ```swift
    /// let expect = try scenario.requiredValue("expect", expected: "\"pass\" or {\"violation\": …}")
    /// ```
    ///
    /// - Throws: ``ConfigError`` if the key is missing (at this object's path, suggesting a
    ///   present key that looks misspelled) or `null` (at the member's path).
    package mutating func requiredValue(_ key: String, expected: String) throws(ConfigError) -> JSONValueReader {
        if let reader = value(key) { return reader }
        if object[key] != nil {
            throw error(at: key, problem: "expected \(expected), found null",
                        fix: "Set \(ConfigText.key(key)) to \(expected).")
        }
        let problem = "missing required key \(ConfigText.key(key))"
        let unread = object.keys.filter { !knownKeys.contains($0) }
        if let typo = NearestName.suggestion(for: key, among: unread) {
            throw error(at: nil, problem: problem, fix: "Rename \(ConfigText.key(typo)) to \(ConfigText.key(key)).")
        }
        throw error(at: nil, problem: problem, fix: "Add \(JSONWriter.quoted(key)) with \(expected).")
    }

    /// Reads a required member as `T`.
    ///
    /// ```swift
    /// let name = try scenario.required("name", as: String.self)
    /// ```
    ///
    /// - Throws: ``ConfigError`` if the key is missing, `null`, or not a `T`.
    package mutating func required<T: JSONReadable>(
        _ key: String, as type: T.Type = T.self, fix: String? = nil
    ) throws(ConfigError) -> T {
        try requiredValue(key, expected: T.expectedDescription).read(as: T.self, fix: fix)
    }

    /// Reads an optional member as `T`; `nil` if missing or `null`.
    ///
    /// ```swift
    /// let quiet = try options.optional("quiet", as: Bool.self) ?? false
    /// ```
    ///
    /// - Throws: ``ConfigError`` if the member is present and not a `T`.
    package mutating func optional<T: JSONReadable>(
        _ key: String, as type: T.Type = T.self, fix: String? = nil
    ) throws(ConfigError) -> T? {
        try value(key)?.read(as: T.self, fix: fix)
    }

    /// Reads a required nested object.
    ///
    /// ```swift
    /// var campaign = try scenario.object("campaign")
    /// ```
    ///
    /// - Throws: ``ConfigError`` if the key is missing, `null`, or not an object.
    package mutating func object(_ key: String) throws(ConfigError) -> JSONObjectReader {
        try requiredValue(key, expected: "an object").object()
    }

    /// Reads an optional nested object; `nil` if missing or `null`.
    ///
    /// ```swift
    /// if var faults = try environment.optionalObject("faults") { … ; try faults.finish() }
    /// ```
    ///
    /// - Throws: ``ConfigError`` if the member is present and not an object.
    package mutating func optionalObject(_ key: String) throws(ConfigError) -> JSONObjectReader? {
        try value(key)?.object()
    }

    /// Reads a required array, as one reader per element (`$.invariants[0]`, …).
    ///
    /// ```swift
    /// let invariants = try scenario.array("invariants").map { e throws(ConfigError) in try e.read(as: String.self) }
    /// ```
    ///
    /// - Throws: ``ConfigError`` if the key is missing, `null`, or not an array.
    package mutating func array(_ key: String) throws(ConfigError) -> [JSONValueReader] {
        try requiredValue(key, expected: "an array").array()
    }

    /// Reads an optional array; `nil` if missing or `null`.
    ///
    /// ```swift
    /// let tags = try scenario.optionalArray("tags") ?? []
    /// ```
    ///
    /// - Throws: ``ConfigError`` if the member is present and not an array.
    package mutating func optionalArray(_ key: String) throws(ConfigError) -> [JSONValueReader]? {
        try value(key)?.array()
    }

    /// Fails on the first key (in document order) that no accessor asked for.
    ///
    /// ```swift
    /// try campaign.finish()
    /// // x.json: $.campaign.horizonSecond: unknown key 'horizonSecond'. Did you mean
    /// // 'horizonSeconds'? Keys allowed in $.campaign: runs, horizonSeconds.
    /// ```
    ///
    /// - Throws: ``ConfigError`` naming the unknown key, the nearest known key when one is close,
    ///   the other unknown keys, and the keys allowed here.
    package func finish() throws(ConfigError) {
        let unknown = object.keys.filter { !knownKeys.contains($0) }
        guard let first = unknown.first else { return }
        var problem = "unknown key \(ConfigText.key(first))"
        if unknown.count > 1 {
            let others = unknown.dropFirst().prefix(5).map(ConfigText.key).joined(separator: ", ")
            problem += " (and \(unknown.count - 1) more: \(others)\(unknown.count > 6 ? ", …" : ""))"
        }
        let allowed = knownKeys.isEmpty
            ? "No keys are allowed in \(path)."
            : "Keys allowed in \(path): \(knownKeys.joined(separator: ", "))."
        let fix = NearestName.suggestion(for: first, among: knownKeys)
            .map { "Did you mean \(ConfigText.key($0))? " + allowed } ?? "Remove it. " + allowed
        throw error(at: first, problem: problem, fix: fix)
    }

    private mutating func remember(_ key: String) {
        if !knownKeys.contains(key) { knownKeys.append(key) }
    }
}
