import DeterministicSimulation
import Testing

@Suite("Seeds")
struct SeedTests {
    @Test("parsing accepts 0x/0X with 1 to 16 hex digits and decimal up to UInt64.max", arguments: [
        ("0x0123456789abcdef", 0x0123_4567_89ab_cdef as UInt64),
        ("0X1f", 0x1f),
        ("0xABCDEF", 0xabcdef),
        ("0x0", 0),
        ("12345", 12345),
        ("0", 0),
        ("007", 7),
        ("18446744073709551615", .max),
        ("0xffffffffffffffff", .max),
    ])
    func parsesAcceptedForms(text: String, expected: UInt64) throws {
        #expect(try Seed(parsing: text) == Seed(expected))
    }

    @Test("parsing rejects everything else, with a reason and the accepted forms", arguments: [
        "", "0x", "0xZZ", "0x00000000000000000", "-1", "+1", "18446744073709551616", " 1", "1 ",
        "1.5", "0x-1", "x12", "1_000", "0b101", "0x 1", "99999999999999999999999",
    ])
    func rejects(text: String) {
        #expect(throws: SeedParseError.self) { try Seed(parsing: text) }
        do {
            _ = try Seed(parsing: text)
        } catch {
            #expect(error.text == text)
            #expect(!error.reason.isEmpty)
            #expect(error.description.contains("0x and 1 to 16 hex digits"))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("error messages say what is wrong")
    func errorReasons() {
        func reason(_ text: String) -> String {
            do {
                _ = try Seed(parsing: text)
                return "parsed"
            } catch {
                return error.reason
            }
        }
        #expect(reason("") == "the seed is empty")
        #expect(reason("0x") == "no hex digits after 0x")
        #expect(reason("0xZZ") == "\"Z\" is not a hex digit")
        #expect(reason("0x00000000000000000") == "17 hex digits is too many (at most 16)")
        #expect(reason("-1") == "\"-\" is not a decimal digit")
        #expect(reason(" 1") == "a space is not a decimal digit")
        #expect(reason("18446744073709551616") == "the number is larger than 18446744073709551615")
    }

    @Test("description is 0x and 16 lowercase hex digits and parses back")
    func descriptionRoundTrips() throws {
        #expect(Seed(0x2a).description == "0x000000000000002a")
        #expect(Seed(.max).description == "0xffffffffffffffff")
        var generator = SplitMix64(seed: 5)
        for _ in 0..<200 {
            let seed = Seed(generator.next())
            #expect(seed.description.count == 18)
            #expect(try Seed(parsing: seed.description) == seed)
            #expect(try Seed(parsing: String(seed.rawValue)) == seed)
        }
    }

    @Test("derive(index:) is output i of SplitMix64 seeded with the campaign seed, pinned")
    func deriveIndexGolden() {
        let campaign = Seed(0x2a)
        #expect([0, 1, 2, 999].map { campaign.derive(index: $0).rawValue }
            == [0xbdd732262feb6e95, 0x28efe333b266f103, 0x47526757130f9f52, 0x66091ca85313fa68])
        var stream = SplitMix64(seed: campaign.rawValue)
        for index in 0..<50 as Range<UInt64> {
            #expect(campaign.derive(index: index).rawValue == stream.next(), "index \(index)")
        }
    }

    @Test("runIndex(of:) inverts derive(index:), and unmix inverts mix")
    func runIndexInvertsDerive() {
        var generator = SplitMix64(seed: 0x1de)
        for _ in 0..<300 {
            let word = generator.next()
            #expect(SplitMix64.unmix(SplitMix64.mix(word)) == word)
            #expect(SplitMix64.mix(SplitMix64.unmix(word)) == word)
            let campaign = Seed(word)
            for index in [0, 1, 99, 100, 4_999, 1 << 31, UInt64.max] as [UInt64] {
                #expect(campaign.runIndex(of: campaign.derive(index: index)) == index, "campaign \(campaign), run \(index)")
            }
        }
        #expect(SplitMix64.unmix(0xe220_a839_7b1d_cdaf) == 0x9e37_79b9_7f4a_7c15)
        // Another campaign's run seeds are not mistaken for runs of this one.
        let campaign = Seed(0x2a), other = Seed(0x2b)
        #expect((0..<1_000 as Range<UInt64>).allSatisfy { campaign.runIndex(of: other.derive(index: $0)) >= 1 << 32 })
    }

    @Test("derive(_:) hashes the label with StableHasher, pinned for the three subsystems")
    func deriveStreamGolden() {
        let run = Seed(0x2a)
        #expect(["environment", "scheduler", "workload"].map { run.derive($0).rawValue }
            == [0xc49d552be68c91b5, 0x8e6c5b5432ceb1b9, 0xac2ecc1bab1c6d98])
        #expect(["environment", "scheduler", "workload", ""].map { Seed(0).derive($0).rawValue }
            == [0xe18a13e20afd1cd7, 0xc7ad5b364d3cec2f, 0x79af8bbcf3e58911, 0x7b4d1cdd8149a2bc])
    }

    @Test("seeds compare by raw value")
    func ordering() {
        #expect(Seed(1) < Seed(2))
        #expect(Seed(rawValue: 3) == Seed(3))
        #expect([Seed(3), Seed(1), Seed(2)].sorted() == [Seed(1), Seed(2), Seed(3)])
    }
}
