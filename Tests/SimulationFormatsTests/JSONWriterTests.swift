import Testing
import SimulationFormats

@Suite("JSONWriter")
struct JSONWriterTests {
    static let report: JSONValue = [
        "schemaVersion": 1,
        "seed": "0x000000000000002a",
        "tool": ["name": "bgsim", "version": "0.1.0"],
        "ratio": 0.5,
        "whole": 3.0,
        "empty": [],
        "emptyObject": [:],
        "list": [1, true, nil, "x", [2]],
    ]

    @Test("pretty output is two-space indented, in insertion order, with a final newline")
    func prettyGolden() {
        let expected = """
            {
              "schemaVersion": 1,
              "seed": "0x000000000000002a",
              "tool": {
                "name": "bgsim",
                "version": "0.1.0"
              },
              "ratio": 0.5,
              "whole": 3.0,
              "empty": [],
              "emptyObject": {},
              "list": [
                1,
                true,
                null,
                "x",
                [
                  2
                ]
              ]
            }

            """
        #expect(JSONWriter().string(for: Self.report) == expected)
        #expect(JSONWriter().bytes(for: Self.report) == Array(expected.utf8))
    }

    @Test("compact output has no whitespace and no final newline")
    func compactGolden() {
        let expected = #"{"schemaVersion":1,"seed":"0x000000000000002a","tool":{"name":"bgsim","version":"0.1.0"},"ratio":0.5,"whole":3.0,"empty":[],"emptyObject":{},"list":[1,true,null,"x",[2]]}"#
        #expect(JSONWriter(style: .compact).string(for: Self.report) == expected)
        #expect(Self.report.description == expected)
    }

    @Test("strings escape quotes, backslashes and control characters only")
    func stringEscapes() {
        let text = "q\" b\\ s/ n\n t\t r\r b\u{8} f\u{C} z\u{0} e\u{1B} d\u{7F} é 😀 \u{2028}"
        let expected = #""q\" b\\ s/ n\n t\t r\r b\b f\f z\u0000 e\u001b d"# + "\u{7F} é 😀 \u{2028}\""
        #expect(JSONWriter.quoted(text) == expected)
        #expect(JSONWriter.quoted("") == #""""#)
    }

    @Test("doubles use the shortest round-trip form, integral ones end in .0, non-finite ones are null")
    func doubleFormatting() {
        let cases: [(Double, String)] = [
            (3, "3.0"), (0.1, "0.1"), (-2.5, "-2.5"), (1e16, "1e+16"), (1e-5, "1e-05"),
            (-0.0, "-0.0"), (.leastNonzeroMagnitude, "5e-324"), (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
            (123_456.789, "123456.789"), (1.0 / 3.0, "0.3333333333333333"), (9_007_199_254_740_992, "9007199254740992.0"),
        ]
        for (value, text) in cases {
            #expect(JSONWriter.text(for: value) == text, "value \(value)")
        }
        #expect(JSONWriter.text(for: .infinity) == nil)
        #expect(JSONWriter.text(for: .nan) == nil)
        #expect(JSONWriter(style: .compact).string(for: [.double(.nan), .double(-.infinity)]) == "[null,null]")
    }

    @Test("integers are written in decimal, including the extremes")
    func integers() {
        let value: JSONValue = [.int(.min), .int(.max), 0, -1]
        #expect(JSONWriter(style: .compact).string(for: value) == "[-9223372036854775808,9223372036854775807,0,-1]")
    }

    @Test("parse(write(v)) == v and rewriting gives the same bytes, for 2,000 generated values")
    func roundTrip() throws {
        for seed in UInt64(0)..<2_000 {
            var generator = JSONValueGenerator(random: TestRandom(seed: seed))
            let value = generator.value()
            for style in [JSONWriter.Style.pretty, .compact] {
                let writer = JSONWriter(style: style)
                let bytes = writer.bytes(for: value)
                let parsed = try JSONParser().parse(bytes)
                #expect(parsed == value, "seed: \(seed), style: \(style)")
                #expect(writer.bytes(for: parsed) == bytes, "seed: \(seed), style: \(style)")
            }
        }
    }

    @Test("hand-picked values survive a round trip with their exact case")
    func roundTripEdgeCases() throws {
        let values: [JSONValue] = [
            .int(.max), .int(.min), .double(3), .double(-0.0), .double(1e300), .double(.leastNonzeroMagnitude),
            "\u{0}\u{1F}\"\\/", "😀\u{10FFFF}", ["": ["": [:]]], [[], [[]], [:]],
        ]
        for value in values {
            let parsed = try JSONParser().parse(JSONWriter().bytes(for: value))
            #expect(parsed == value)
            if case .double(let original) = value {
                #expect(parsed.doubleValue?.bitPattern == original.bitPattern)
            }
        }
    }
}
