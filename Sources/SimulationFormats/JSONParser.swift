/// A strict RFC 8259 JSON parser with plain-language, positioned errors.
///
/// Scenario files are written by hand, so every rejection says what is wrong, where (line and
/// column), and how to fix it. The parser is iterative (an explicit stack, no recursion), so no
/// input can overflow the call stack, and it never traps: any byte sequence yields a value or a
/// ``JSONParseError``.
///
/// ```swift
/// let value = try JSONParser().parse(#"{"campaign": {"runs": 100, "seed": "0x2a"}}"#)
/// value["campaign"]?["runs"]   // .int(100)
/// ```
///
/// Contract (what is accepted):
/// - Exactly one JSON value, optionally surrounded by whitespace (space, tab, LF, CR) and
///   optionally preceded by a UTF-8 byte-order mark.
/// - No trailing commas, comments, single quotes, unquoted keys, `NaN`, `Infinity`, leading zeros,
///   or leading `+`. Strings may not contain raw control characters (U+0000–U+001F).
/// - Escapes: `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t` and `\uXXXX`; surrogate pairs combine;
///   an unpaired surrogate is an error.
/// - The input must be well-formed UTF-8.
/// - Numbers without fraction or exponent that fit `Int64` become `.int`; others become
///   `.double` (correctly rounded); a number whose magnitude overflows `Double` is an error, one
///   that underflows becomes zero.
/// - A key repeated within one object is an error naming the key.
/// - Containers nest at most ``maxDepth`` deep (the top-level container is depth 1).
/// - Empty input (or only a byte-order mark or whitespace) is an error.
///
/// Complexity: O(n) in the input length.
package struct JSONParser: Sendable {
    /// The nesting limit used by default: 512 levels of arrays and objects.
    package static let defaultMaxDepth = 512

    /// The deepest nesting of arrays and objects accepted; deeper input is an error.
    ///
    /// Parsing itself uses no call stack per level, but code that walks a value recursively
    /// (equality, hashing, ``JSONWriter``, deinitialization) does; keep the limit in the low
    /// thousands at most.
    package var maxDepth: Int

    /// Creates a parser.
    ///
    /// ```swift
    /// let parser = JSONParser(maxDepth: 64)
    /// ```
    ///
    /// - Parameter maxDepth: the deepest nesting accepted (values below 0 act as 0, which
    ///   accepts only scalars).
    package init(maxDepth: Int = JSONParser.defaultMaxDepth) {
        self.maxDepth = max(0, maxDepth)
    }

    /// Parses UTF-8 bytes into a value.
    ///
    /// ```swift
    /// let bytes: [UInt8] = Array(#"[1, 2.5, "x"]"#.utf8)
    /// let value = try JSONParser().parse(bytes)   // [.int(1), .double(2.5), .string("x")]
    /// ```
    ///
    /// - Throws: ``JSONParseError`` with the line, column and reason of the first problem.
    package func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        var cursor = Cursor(bytes: Array(bytes), maxDepth: maxDepth)
        return try cursor.parseDocument()
    }

    /// Parses a string's UTF-8 encoding into a value.
    ///
    /// ```swift
    /// let value = try JSONParser().parse("true")   // .bool(true)
    /// ```
    ///
    /// - Throws: ``JSONParseError`` with the line, column and reason of the first problem.
    package func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

extension JSONParser {
    /// The parsing state: the input and a position. (The stack of open containers is local to
    /// `parseValue`, which keeps this struct small: debug builds copy it for every helper call.)
    struct Cursor {
        enum Frame { case array, object }

        let bytes: [UInt8]
        let maxDepth: Int
        var offset = 0

        init(bytes: [UInt8], maxDepth: Int) {
            self.bytes = bytes
            self.maxDepth = maxDepth
        }

        var atEnd: Bool { offset >= bytes.count }

        func peek(is ascii: Unicode.Scalar) -> Bool {
            offset < bytes.count && bytes[offset] == UInt8(ascii: ascii)
        }

        func error(_ reason: String, fix: String, at position: Int? = nil) -> JSONParseError {
            JSONParseError(reason, fix: fix, at: position ?? offset, in: bytes)
        }

        func found(at position: Int? = nil) -> String {
            JSONParseError.describe(at: position ?? offset, in: bytes)
        }

        mutating func skipWhitespace() {
            while offset < bytes.count {
                switch bytes[offset] {
                case 0x20, 0x09, 0x0A, 0x0D: offset += 1
                default: return
                }
            }
        }

        mutating func parseDocument() throws(JSONParseError) -> JSONValue {
            if JSONParseError.hasByteOrderMark(bytes) { offset = 3 }
            let contentStart = offset
            skipWhitespace()
            if atEnd {
                let onlyWhitespace = offset > contentStart
                throw error(
                    onlyWhitespace ? "the file contains only whitespace" : "the file is empty",
                    fix: "Write a JSON value into it, for example {}.")
            }
            let value = try parseValue()
            skipWhitespace()
            guard atEnd else {
                throw error(
                    "unexpected \(found()) after the end of the JSON value",
                    fix: hint(or: "Remove it: a JSON file holds exactly one value (wrap several in an array)."))
            }
            return value
        }

        /// Parses one value at `offset`, including everything nested in it.
        mutating func parseValue() throws(JSONParseError) -> JSONValue {
            var frames: [Frame] = []
            var arrays: [[JSONValue]] = []
            var objects: [JSONObject] = []
            var pendingKeys: [String] = []
            parsing: while true {
                skipWhitespace()
                var value: JSONValue
                guard !atEnd else { throw expectedValue() }
                switch bytes[offset] {
                case UInt8(ascii: "{"):
                    try checkDepth(frames.count)
                    offset += 1
                    skipWhitespace()
                    if peek(is: "}") {
                        offset += 1
                        value = .object(JSONObject())
                    } else {
                        frames.append(.object)
                        objects.append(JSONObject())
                        pendingKeys.append(try parseMemberKey(in: JSONObject()))
                        continue parsing
                    }
                case UInt8(ascii: "["):
                    try checkDepth(frames.count)
                    offset += 1
                    skipWhitespace()
                    if peek(is: "]") {
                        offset += 1
                        value = .array([])
                    } else {
                        frames.append(.array)
                        arrays.append([])
                        continue parsing
                    }
                case UInt8(ascii: "\""):
                    value = .string(try parseString())
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    value = try parseNumber()
                default:
                    value = try parseLiteral()
                }
                // Hand the finished value to the open containers, closing those that end here.
                attaching: while true {
                    guard let frame = frames.last else { return value }
                    switch frame {
                    case .array:
                        arrays[arrays.count - 1].append(value)
                        skipWhitespace()
                        if peek(is: ",") {
                            try consumeComma(closer: "]", container: "element")
                            continue parsing
                        }
                        guard peek(is: "]") else {
                            throw error(
                                "expected ',' or ']' after an array element, found \(found())",
                                fix: hint(or: "Add a ',' between elements or a ']' to close the array."))
                        }
                        offset += 1
                        frames.removeLast()
                        value = .array(arrays.removeLast())
                        continue attaching
                    case .object:
                        let key = pendingKeys.removeLast()
                        _ = objects[objects.count - 1].appendIfAbsent(key, value)
                        skipWhitespace()
                        if peek(is: ",") {
                            try consumeComma(closer: "}", container: "member")
                            pendingKeys.append(try parseMemberKey(in: objects[objects.count - 1]))
                            continue parsing
                        }
                        guard peek(is: "}") else {
                            throw error(
                                "expected ',' or '}' after an object member, found \(found())",
                                fix: hint(or: "Add a ',' between members or a '}' to close the object."))
                        }
                        offset += 1
                        frames.removeLast()
                        value = .object(objects.removeLast())
                        continue attaching
                    }
                }
            }
        }

        /// Fails if opening one more container inside `depth` open ones would exceed `maxDepth`.
        func checkDepth(_ depth: Int) throws(JSONParseError) {
            guard depth < maxDepth else {
                throw error(
                    "arrays and objects are nested more than \(maxDepth) levels deep",
                    fix: "Flatten the structure; scenario and report files need only a few levels.")
            }
        }

        /// Consumes a ',' and rejects a trailing comma before `closer`.
        mutating func consumeComma(closer: Unicode.Scalar, container: String) throws(JSONParseError) {
            let commaOffset = offset
            offset += 1
            skipWhitespace()
            if peek(is: closer) {
                throw error(
                    "trailing comma before '\(closer)'",
                    fix: "Remove the comma after the last \(container); JSON does not allow trailing commas.",
                    at: commaOffset)
            }
        }

        /// Parses `"key":` at `offset` for `object`, the innermost open object; returns the key.
        mutating func parseMemberKey(in object: JSONObject) throws(JSONParseError) -> String {
            guard peek(is: "\"") else {
                throw error(
                    "expected a member name in double quotes, found \(found())",
                    fix: hint(or: "Write each member as \"name\": value, with the name in double quotes."))
            }
            let keyOffset = offset
            let key = try parseString()
            if object.contains(key) {
                throw error(
                    "duplicate key \(JSONWriter.quoted(key)) in the same object",
                    fix: "Keep only one of the members named \(JSONWriter.quoted(key)).",
                    at: keyOffset)
            }
            skipWhitespace()
            guard peek(is: ":") else {
                throw error(
                    "expected ':' after the member name \(JSONWriter.quoted(key)), found \(found())",
                    fix: hint(or: "Separate each name from its value with ':'."))
            }
            offset += 1
            return key
        }
    }
}
