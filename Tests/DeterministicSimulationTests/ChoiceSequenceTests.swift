import DeterministicSimulation
import Testing

@Suite("Choice sequences")
struct ChoiceSequenceTests {
    @Test("tokens are c1. plus unpadded base64url of LEB128 varints")
    func tokenFormat() {
        #expect(ChoiceSequence().token == "c1.")
        #expect(ChoiceSequence([0]).token == "c1.AA")
        #expect(ChoiceSequence([0, 1, 300]).token == "c1.AAGsAg")
        #expect(ChoiceSequence([127, 128]).token == "c1.f4AB")
        #expect(ChoiceSequence([.max]).token == "c1.____________AQ")
    }

    @Test("tokens round-trip: empty, small, large and UInt64.max values")
    func roundTrip() throws {
        let fixed: [[UInt64]] = [[], [0], [1, 0, 1], [127, 128, 16383, 16384], [.max, 0, .max],
                                 [UInt64(1) << 63, (1 << 56) - 1, 1 << 56]]
        for values in fixed {
            let sequence = ChoiceSequence(values)
            #expect(try ChoiceSequence(token: sequence.token) == sequence)
        }
        var generator = Xoshiro256StarStar(seed: 11)
        for length in 0..<64 {
            let values = (0..<length).map { _ in generator.next() >> generator.next(below: 64) }
            let sequence = ChoiceSequence(values)
            #expect(try ChoiceSequence(token: sequence.token) == sequence, "length \(length)")
        }
    }

    @Test("garbage tokens are rejected with a reason", arguments: [
        ("", "it must start with \"c1.\""),
        ("c2.AA", "it must start with \"c1.\""),
        ("C1.AA", "it must start with \"c1.\""),
        ("c1.A", "truncated: 1 base64url characters cannot encode whole bytes"),
        ("c1.AA==", "invalid character \"=\" at offset 5"),
        ("c1.A A", "invalid character a space"),
        ("c1.AB", "non-canonical base64url: the padding bits are not zero"),
        ("c1.gA", "truncated varint at the end (value 0)"),
        ("c1.gAA", "overlong varint (value 0 has a trailing zero byte)"),
        ("c1.____________Ag", "value 0 is larger than UInt64.max"),
        ("c1._____________wE", "value 0 is larger than UInt64.max"),
        ("c1.AA/A", "invalid character \"/\" at offset 5"),
    ])
    func rejectsGarbage(token: String, reasonPrefix: String) {
        do {
            let parsed = try ChoiceSequence(token: token)
            Issue.record("\(token) parsed as \(parsed.values)")
        } catch {
            #expect(
                error.reason.hasPrefix(reasonPrefix) || error.reason.contains(reasonPrefix),
                "token \(token): \(error.reason)")
            #expect(error.description.hasPrefix("invalid choice token: "))
        }
    }

    @Test("shorter is simpler; at equal length the lexicographically smaller is simpler")
    func simplicity() {
        func simpler(_ a: [UInt64], _ b: [UInt64]) -> Bool {
            ChoiceSequence(a).isSimpler(than: ChoiceSequence(b))
        }
        #expect(simpler([], [0]))
        #expect(simpler([9, 9], [0, 0, 0]))
        #expect(simpler([1, 0], [1, 2]))
        #expect(simpler([0, 5], [1, 0]))
        #expect(!simpler([1, 2], [1, 2]))
        #expect(!simpler([1, 2], [1, 0]))
        #expect(!simpler([0, 0, 0], [9, 9]))
    }

    @Test("the shrinker's order: fewer actions first, then the simpler sequence")
    func shrinkerOrder() {
        func simpler(_ a: [UInt64], _ actions: Int, _ b: [UInt64], _ otherActions: Int) -> Bool {
            Shrinker.isSimpler(ChoiceSequence(a), actions: actions, than: ChoiceSequence(b), actions: otherActions)
        }
        #expect(simpler([9, 9, 9, 9], 2, [0], 3))       // fewer actions wins over more values
        #expect(!simpler([0], 3, [9, 9, 9, 9], 2))
        #expect(simpler([1, 0], 2, [1, 2], 2))          // equal actions: the sequence decides
        #expect(!simpler([1, 2], 2, [1, 2], 2))          // irreflexive
    }

    @Test("description is the token")
    func description() {
        #expect(ChoiceSequence([0, 1, 300]).description == "c1.AAGsAg")
    }
}
