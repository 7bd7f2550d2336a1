import Testing
import SimulationFormats

/// The parser must never crash: every input gives a value or an error positioned inside it.
///
/// Reproduce a failure with `swift test --filter JSONParserFuzzTests`; each issue names the
/// mutant index, and mutant `i` is `FuzzMutator(random: TestRandom(seed: Self.seed &+ i), …)`.
@Suite("JSONParser fuzzing")
struct JSONParserFuzzTests {
    static let seed: UInt64 = 0x5EED_0F_1A55_0000
    static let mutantCount = 20_000

    @Test("the seed documents parse and round-trip")
    func seedsParse() throws {
        for seed in FuzzSeeds.all {
            let value = try JSONParser().parse(seed)
            #expect(try JSONParser().parse(JSONWriter().bytes(for: value)) == value)
        }
    }

    @Test("20,000 mutants of realistic documents each give a value or a well-positioned error")
    func mutants() throws {
        var outcomes = (values: 0, errors: 0)
        for index in 0..<Self.mutantCount {
            var mutator = FuzzMutator(random: TestRandom(seed: Self.seed &+ UInt64(index)), seeds: FuzzSeeds.all)
            let input = mutator.mutant()
            if check(input, label: "mutant \(index) (seed: \(Self.seed &+ UInt64(index)))") {
                outcomes.values += 1
            } else {
                outcomes.errors += 1
            }
        }
        // Both outcomes must be common, or the mutations are too weak or too destructive.
        #expect(outcomes.values > Self.mutantCount / 50, "values: \(outcomes.values)")
        #expect(outcomes.errors > Self.mutantCount / 2, "errors: \(outcomes.errors)")
    }

    @Test("nesting bombs, long strings and bad encodings give errors or values, never crashes")
    func hostileInputs() {
        let deep = 100_000
        let quote = [UInt8(ascii: "\"")]
        let inputs: [(String, [UInt8])] = [
            ("100k '['", repeated("[", deep)),
            ("100k '{\"a\":'", repeated(#"{"a":"#, deep)),
            ("100k '[' then ']'", repeated("[", deep) + repeated("]", deep)),
            ("mixed bomb", repeated(#"[{"k":["#, deep / 4)),
            ("long string", quote + repeated("x", 300_000) + quote),
            ("long escaped string", quote + repeated(#"\u00e9\n"#, 50_000) + quote),
            ("unterminated long string", quote + repeated("y", 300_000)),
            ("long number", repeated("1", 1) + repeated("0", deep)),
            ("long fraction", repeated("0.", 1) + repeated("3", deep)),
            ("huge exponent", Array("1e99999999999999999999999".utf8)),
            ("tiny exponent", Array("1e-99999999999999999999999".utf8)),
            ("all bytes", (0...255).map { UInt8($0) }),
            ("only continuation bytes", [UInt8](repeating: 0x80, count: 1_000)),
            ("many lines", repeated("\n", 10_000) + [0xFF]),
            ("wide array", repeated("[", 1) + repeated("1,", 50_000) + repeated("1]", 1)),
            ("many keys", wideObject(keys: 10_000)),
        ]
        for (label, input) in inputs {
            _ = check(input, label: label)
        }
    }

    private func repeated(_ text: String, _ count: Int) -> [UInt8] {
        let unit = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(unit.count * count)
        for _ in 0..<count { bytes.append(contentsOf: unit) }
        return bytes
    }

    /// `{"k0": 0, "k1": 1, …, "k0": 0}`: many members, then a duplicate of the first.
    private func wideObject(keys: Int) -> [UInt8] {
        var bytes = Array("{".utf8)
        for key in 0..<keys {
            bytes.append(contentsOf: "\"k\(key)\": \(key),".utf8)
        }
        return bytes + Array("\"k0\": 0}".utf8)
    }

    /// Parses `input`; checks the error's position or the value's round trip. Returns whether
    /// it parsed.
    @discardableResult
    private func check(_ input: [UInt8], label: String) -> Bool {
        do {
            let value = try JSONParser().parse(input)
            let rewritten = JSONWriter(style: .compact).bytes(for: value)
            let reparsed = try? JSONParser().parse(rewritten)
            #expect(reparsed == value, "\(label): the parsed value does not round-trip")
            return true
        } catch {
            #expect(isWithin(error, input), "\(label): \(error) is outside the input (\(input.count) bytes)")
            #expect(!error.reason.isEmpty && !error.fix.isEmpty, "\(label): empty message")
            return false
        }
    }

    /// Whether the error's line, column and offset point into `input` (or just past its end).
    private func isWithin(_ error: JSONParseError, _ input: [UInt8]) -> Bool {
        guard (0...input.count).contains(error.byteOffset), error.line >= 1, error.column >= 1 else {
            return false
        }
        var lineStart = input.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard lineStart <= error.byteOffset else { return false }
        var line = 1
        for index in lineStart..<error.byteOffset where input[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        let lineEnd = input[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? input.count
        let widthOfLine = input[lineStart..<lineEnd].count { $0 & 0xC0 != 0x80 }
        return error.line == line && error.column <= widthOfLine + 1
    }
}
