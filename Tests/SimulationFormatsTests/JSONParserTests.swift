import Testing
@testable import SimulationFormats

/// A parser input and what it must give.
struct ParseCase: Sendable, CustomTestStringConvertible {
    let input: [UInt8]
    let expected: Result<JSONValue, JSONParseError>
    var testDescription: String { JSONWriter.quoted(String(decoding: input.prefix(60), as: UTF8.self)) }

    static func accepts(_ text: String, _ value: JSONValue) -> ParseCase {
        ParseCase(input: Array(text.utf8), expected: .success(value))
    }

    static func rejects(_ text: String, line: Int, column: Int, _ reason: String) -> ParseCase {
        rejects(bytes: Array(text.utf8), line: line, column: column, reason)
    }

    static func rejects(bytes: [UInt8], line: Int, column: Int, _ reason: String) -> ParseCase {
        let error = JSONParseError(reason: reason, fix: "", line: line, column: column, byteOffset: 0)
        return ParseCase(input: bytes, expected: .failure(error))
    }
}

@Suite("JSONParser")
struct JSONParserTests {
    static let accepted: [ParseCase] = [
        .accepts("null", nil),
        .accepts(" true ", true),
        .accepts("\n\tfalse\r\n", false),
        .accepts("0", 0),
        .accepts("-0", 0),
        .accepts("-12", -12),
        .accepts("9223372036854775807", .int(.max)),
        .accepts("-9223372036854775808", .int(.min)),
        .accepts("9223372036854775808", .double(9_223_372_036_854_775_808)),
        .accepts("1.5", 1.5),
        .accepts("-0.0", .double(-0.0)),
        .accepts("1e3", .double(1000)),
        .accepts("2.5E-3", .double(0.0025)),
        .accepts("1E+2", .double(100)),
        .accepts("1e-400", .double(0)),
        .accepts("0.1", .double(0.1)),
        .accepts("1.7976931348623157e308", .double(.greatestFiniteMagnitude)),
        .accepts(#""""#, ""),
        .accepts(#""a\"b\\c\/d\b\f\n\r\t""#, "a\"b\\c/d\u{8}\u{C}\n\r\t"),
        .accepts(#""\u00e9\u00E9é""#, "ééé"),
        .accepts(#""\ud83d\ude00 😀""#, "😀 😀"),
        .accepts(#""\u0000""#, "\u{0}"),
        .accepts("\"\u{7F}\u{2028}\"", "\u{7F}\u{2028}"),
        .accepts("[]", []),
        .accepts("{}", [:]),
        .accepts("[1, [2, [3]], {}]", [1, [2, [3]], [:]]),
        .accepts(#"{"b": 1, "a": {"c": [true, null]}}"#, ["b": 1, "a": ["c": [true, nil]]]),
        .accepts("\u{FEFF}{\"bom\": 1}", ["bom": 1]),
        .accepts(#"{"a":1,"A":2}"#, ["a": 1, "A": 2]),
    ]

    @Test("accepts every RFC 8259 form with the exact value", arguments: accepted)
    func accepts(_ testCase: ParseCase) throws {
        let value = try JSONParser().parse(testCase.input)
        #expect(Result.success(value) == testCase.expected)
    }

    static let rejected: [ParseCase] = [
        .rejects("", line: 1, column: 1, "the file is empty"),
        .rejects(bytes: [0xEF, 0xBB, 0xBF], line: 1, column: 1, "the file is empty"),
        .rejects(" \n  ", line: 2, column: 3, "the file contains only whitespace"),
        .rejects("[1, 2,]", line: 1, column: 6, "trailing comma before ']'"),
        .rejects("{\n  \"a\": 1,\n}", line: 2, column: 9, "trailing comma before '}'"),
        .rejects("{\"a\": 1 \"b\": 2}", line: 1, column: 9, #"expected ',' or '}' after an object member, found '"'"#),
        .rejects("[1 2]", line: 1, column: 4, "expected ',' or ']' after an array element, found '2'"),
        .rejects("{\"a\" 1}", line: 1, column: 6, #"expected ':' after the member name "a", found '1'"#),
        .rejects("{a: 1}", line: 1, column: 2, "expected a member name in double quotes, found 'a'"),
        .rejects("{'a': 1}", line: 1, column: 2, "expected a member name in double quotes, found '''"),
        .rejects("[1] // done", line: 1, column: 5, "unexpected '/' after the end of the JSON value"),
        .rejects("/* c */ 1", line: 1, column: 1, "expected a value, found '/'"),
        .rejects("[NaN]", line: 1, column: 2, "expected a value, found 'NaN'"),
        .rejects("-Infinity", line: 1, column: 2, "expected a digit after '-', found 'I'"),
        .rejects("True", line: 1, column: 1, "expected a value, found 'True'"),
        .rejects("nul", line: 1, column: 1, "expected a value, found 'nul'"),
        .rejects("[1,\n 2,\n x]", line: 3, column: 2, "expected a value, found 'x'"),
        .rejects("{\"a\": 1, \"a\": 2}", line: 1, column: 10, #"duplicate key "a" in the same object"#),
        .rejects("\"abc", line: 1, column: 1, "unterminated string: no closing '\"' before the end of the input"),
        .rejects("{\"name\": \"abc,\n\"x\": 1}", line: 1, column: 15, "line break inside a string (is a closing '\"' missing?)"),
        .rejects("\"a\tb\"", line: 1, column: 3, "unescaped tab inside a string"),
        .rejects("\"a\u{1}b\"", line: 1, column: 3, "unescaped control character U+0001 inside a string"),
        .rejects(#""\x""#, line: 1, column: 2, #"invalid escape sequence '\x' in a string"#),
        .rejects(#""\u12G4""#, line: 1, column: 2, #"invalid \u escape: expected four hexadecimal digits after \u"#),
        .rejects(#""\ud83d""#, line: 1, column: 2, #"unpaired surrogate \uD83D in a string"#),
        .rejects(#""\ud83dx""#, line: 1, column: 2, #"unpaired surrogate \uD83D in a string"#),
        .rejects(#""\ud83d\u0041""#, line: 1, column: 2, #"unpaired surrogate \uD83D in a string"#),
        .rejects(#""\ude00""#, line: 1, column: 2, #"unpaired surrogate \uDE00 in a string"#),
        .rejects("01", line: 1, column: 1, "numbers must not start with a leading zero"),
        .rejects("-01", line: 1, column: 2, "numbers must not start with a leading zero"),
        .rejects("+1", line: 1, column: 1, "expected a value, found '+'"),
        .rejects(".5", line: 1, column: 1, "expected a value, found '.'"),
        .rejects("1.", line: 1, column: 3, "expected a digit after the decimal point, found the end of the input"),
        .rejects("1.e3", line: 1, column: 3, "expected a digit after the decimal point, found 'e'"),
        .rejects("1e", line: 1, column: 3, "expected a digit in the exponent, found the end of the input"),
        .rejects("[1e+]", line: 1, column: 5, "expected a digit in the exponent, found ']'"),
        .rejects("1e400", line: 1, column: 1, "the number 1e400 is too large for a 64-bit floating-point value"),
        .rejects("[-1e309]", line: 1, column: 2, "the number -1e309 is too large for a 64-bit floating-point value"),
        .rejects("[1, 2", line: 1, column: 6, "expected ',' or ']' after an array element, found the end of the input"),
        .rejects("{\"a\":", line: 1, column: 6, "expected a value, found the end of the input"),
        .rejects("1 2", line: 1, column: 3, "unexpected '2' after the end of the JSON value"),
        .rejects(bytes: [0x22, 0x61, 0xFF, 0x22], line: 1, column: 3, "invalid UTF-8 in a string (the byte 0xFF)"),
        .rejects(bytes: [0x22, 0xC0, 0xAF, 0x22], line: 1, column: 2, "invalid UTF-8 in a string (the byte 0xC0)"),
        .rejects(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], line: 1, column: 2, "invalid UTF-8 in a string (the byte 0xED)"),
        .rejects(bytes: [0x22, 0xE2, 0x82], line: 1, column: 2, "invalid UTF-8 in a string (the byte 0xE2)"),
        .rejects(bytes: [0xFF], line: 1, column: 1, "expected a value, found the byte 0xFF, which is not valid UTF-8"),
        .rejects("{\"é\": 1, \"é\": 2}", line: 1, column: 10, #"duplicate key "é" in the same object"#),
        .rejects("[\"é\", “x”]", line: 1, column: 7, "expected a value, found '“' (U+201C)"),
        .rejects("[\u{0}]", line: 1, column: 2, "expected a value, found the control character U+0000"),
    ]

    @Test("rejects malformed input with the exact line, column and reason", arguments: rejected)
    func rejects(_ testCase: ParseCase) {
        guard case .failure(let expected) = testCase.expected else { return }
        let error = #expect(throws: JSONParseError.self) { try JSONParser().parse(testCase.input) }
        #expect(error?.reason == expected.reason)
        #expect(error?.line == expected.line)
        #expect(error?.column == expected.column)
        #expect(error?.fix.isEmpty == false)
    }

    @Test("nesting deeper than the limit is an error at the first container too deep")
    func depthLimit() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        _ = try JSONParser().parse(ok)
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let error = #expect(throws: JSONParseError.self) { try JSONParser().parse(deep) }
        #expect(error?.reason == "arrays and objects are nested more than 512 levels deep")
        #expect(error?.column == 513)
        let shallow = JSONParser(maxDepth: 2)
        _ = try shallow.parse("[[]]")
        #expect(throws: JSONParseError.self) { try shallow.parse(#"{"a": {"b": {}}}"#) }
    }

    @Test("a 100,000-deep nesting bomb is rejected without overflowing the stack")
    func nestingBomb() {
        let bomb = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        let error = #expect(throws: JSONParseError.self) { try JSONParser().parse(bomb) }
        #expect(error?.byteOffset == 512)
        let unlimited = JSONParser(maxDepth: .max)
        #expect(throws: JSONParseError.self) { try unlimited.parse(bomb) }
    }

    @Test("objects keep their members in document order")
    func memberOrder() throws {
        let value = try JSONParser().parse(#"{"zeta": 1, "alpha": 2, "mid": 3}"#)
        #expect(value.objectValue?.keys == ["zeta", "alpha", "mid"])
    }

    @Test("columns count Unicode scalars and a byte-order mark is not counted")
    func columnsCountScalars() {
        let error = #expect(throws: JSONParseError.self) { try JSONParser().parse("\u{FEFF}[\"ü😀\", x]") }
        #expect(error?.line == 1)
        #expect(error?.column == 8)
        #expect(error?.byteOffset == 14)
    }

    @Test("the error description is 'line L, column C: reason'")
    func errorDescription() {
        let error = #expect(throws: JSONParseError.self) { try JSONParser().parse("[1,]") }
        #expect(error?.description == "line 1, column 3: trailing comma before ']'")
        #expect(error?.fix == "Remove the comma after the last element; JSON does not allow trailing commas.")
    }
}
