/// A JSON object that keeps its members in insertion order, with lookup by key.
///
/// Reports are built member by member and written in that order, so the same report is the same
/// bytes in every process (a `Dictionary` would be reordered by per-process hash seeding).
///
/// ```swift
/// var summary = JSONObject()
/// summary.append("runs", 100)
/// summary.append("failed", 1)
/// summary["failed"] = 2            // replaces in place
/// summary.keys                     // ["runs", "failed"]
/// ```
///
/// Contract:
/// - Keys are unique; insertion order is preserved; replacing a value keeps its position;
///   removing a member keeps the order of the rest.
/// - Two objects are equal when they have the same members in the same order.
/// - Keys are compared as Swift `String`s (by Unicode canonical equivalence).
/// - Lookup is O(1) on average; `removeValue(forKey:)` is O(n).
package struct JSONObject: Hashable, Sendable {
    /// One key/value pair of an object.
    ///
    /// ```swift
    /// let member = JSONObject.Member(key: "runs", value: 100)
    /// ```
    package struct Member: Hashable, Sendable {
        /// The member's name.
        package var key: String
        /// The member's value.
        package var value: JSONValue

        /// Creates a member.
        ///
        /// ```swift
        /// let member = JSONObject.Member(key: "seed", value: "0x00000000000000ff")
        /// ```
        package init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members in insertion order.
    package private(set) var members: [Member] = []

    /// Position of each key in `members`; always consistent with `members`.
    private var positions: [String: Int] = [:]

    /// Creates an empty object.
    ///
    /// ```swift
    /// var object = JSONObject()
    /// object.append("name", "bgsim")
    /// ```
    package init() {}

    /// Creates an object from key/value pairs, in order.
    ///
    /// ```swift
    /// let tool = JSONObject(uniqueMembers: [("name", "bgsim"), ("version", "0.1.0")])
    /// ```
    ///
    /// - Precondition: no key appears twice.
    package init(uniqueMembers pairs: some Sequence<(String, JSONValue)>) {
        for (key, value) in pairs {
            append(key, value)
        }
    }

    /// The keys, in order.
    ///
    /// ```swift
    /// let object: JSONValue = ["b": 1, "a": 2]
    /// object.objectValue?.keys   // ["b", "a"]
    /// ```
    package var keys: [String] {
        members.map(\.key)
    }

    /// The values, in key order.
    ///
    /// ```swift
    /// let object: JSONValue = ["b": 1, "a": 2]
    /// object.objectValue?.values   // [.int(1), .int(2)]
    /// ```
    package var values: [JSONValue] {
        members.map(\.value)
    }

    /// The number of members.
    ///
    /// ```swift
    /// JSONObject().count   // 0
    /// ```
    package var count: Int {
        members.count
    }

    /// Whether the object has no members.
    ///
    /// ```swift
    /// JSONObject().isEmpty   // true
    /// ```
    package var isEmpty: Bool {
        members.isEmpty
    }

    /// Whether the object has a member named `key`.
    ///
    /// ```swift
    /// let object = JSONObject(uniqueMembers: [("runs", 1)])
    /// object.contains("runs")   // true
    /// ```
    package func contains(_ key: String) -> Bool {
        positions[key] != nil
    }

    /// The value for `key`; setting replaces in place, appends a new key, or removes with `nil`.
    ///
    /// ```swift
    /// var object = JSONObject()
    /// object["runs"] = 10      // appended
    /// object["runs"] = 20      // replaced, same position
    /// object["runs"] = nil     // removed
    /// ```
    package subscript(key: String) -> JSONValue? {
        get {
            guard let position = positions[key] else { return nil }
            return members[position].value
        }
        set {
            if let newValue {
                set(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Appends a member at the end.
    ///
    /// ```swift
    /// var tool = JSONObject()
    /// tool.append("name", "bgsim")
    /// tool.append("version", "0.1.0")
    /// ```
    ///
    /// - Precondition: `key` is not already present. Appending a key twice is a programming
    ///   error in the code building the object; use ``set(_:forKey:)`` to replace.
    package mutating func append(_ key: String, _ value: JSONValue) {
        let appended = appendIfAbsent(key, value)
        precondition(appended, "JSONObject.append: the key '\(key)' is already present")
    }

    /// Sets the value for `key`: replaces it in place if present, otherwise appends it.
    ///
    /// ```swift
    /// var counts = JSONObject()
    /// counts.set(1, forKey: "no-double-end")
    /// counts.set(2, forKey: "no-double-end")   // still one member, now 2
    /// ```
    package mutating func set(_ value: JSONValue, forKey key: String) {
        if let position = positions[key] {
            members[position].value = value
        } else {
            positions[key] = members.count
            members.append(Member(key: key, value: value))
        }
    }

    /// Removes the member named `key`, keeping the order of the others.
    ///
    /// ```swift
    /// var object = JSONObject(uniqueMembers: [("a", 1), ("b", 2)])
    /// object.removeValue(forKey: "a")   // .int(1); keys are now ["b"]
    /// ```
    ///
    /// - Returns: the removed value, or `nil` if there was no such member.
    /// - Complexity: O(n).
    @discardableResult
    package mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let position = positions.removeValue(forKey: key) else { return nil }
        let removed = members.remove(at: position)
        for index in position..<members.count {
            positions[members[index].key] = index
        }
        return removed.value
    }

    /// Appends a member unless the key is present; returns whether it appended.
    /// The parser uses this to report duplicate keys instead of trapping.
    mutating func appendIfAbsent(_ key: String, _ value: JSONValue) -> Bool {
        guard positions[key] == nil else { return false }
        positions[key] = members.count
        members.append(Member(key: key, value: value))
        return true
    }

    /// Equal when the members are equal and in the same order.
    ///
    /// ```swift
    /// let ab: JSONValue = ["a": 1, "b": 2], ba: JSONValue = ["b": 2, "a": 1]
    /// ab == ba   // false: order matters
    /// ```
    package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members == rhs.members
    }

    /// Hashes the members in order (consistent with `==`).
    ///
    /// ```swift
    /// var hasher = Hasher()
    /// JSONObject().hash(into: &hasher)
    /// ```
    package func hash(into hasher: inout Hasher) {
        hasher.combine(members)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Creates an object from a dictionary literal, keeping the literal's order.
    ///
    /// ```swift
    /// let tool: JSONObject = ["name": "bgsim", "version": "0.1.0"]
    /// ```
    ///
    /// - Precondition: no key appears twice.
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(uniqueMembers: elements)
    }
}
