import DeterministicSimulation
import Testing

/// A hand-hashed event, and one that relies on the default hash from name and fields.
private struct Ping: TraceEventRepresentable {
    let id: Int64
    func hash(into hasher: inout StableHasher) { hasher.combine(id) }
    var name: String { "ping" }
    var fields: [TraceField] { [TraceField("id", .int(id))] }
}

private struct Note: TraceEventRepresentable {
    let text: String
    var name: String { "note" }
    var fields: [TraceField] { [TraceField("text", .string(text)), TraceField("loud", .bool(true))] }
}

@Suite("Stable hashing and traces")
struct TraceTests {
    @Test("StableHasher v1 is pinned (values from an independent implementation)")
    func hasherGolden() {
        #expect(StableHasher().finalize() == 0x492b8d6066c09227)
        var zero = StableHasher()
        zero.combine(0 as UInt64)
        #expect(zero.finalize() == 0x058ea2f35b9bc9b4)
        var words = StableHasher()
        for word in [1, 2, 3] as [UInt64] { words.combine(word) }
        #expect(words.finalize() == 0xda32467138d98108)
        func hash(_ text: String) -> UInt64 {
            var hasher = StableHasher()
            hasher.combine(text)
            return hasher.finalize()
        }
        #expect(hash("") == 0x058ea2f35b9bc9b4)  // the length word 0, nothing else
        #expect(hash("scheduler") == 0x161958cc4c22f302)
        #expect(hash("hello, world! héllo") == 0xa227d08e269deb77)
        var mixed = StableHasher()
        mixed.combine(Int64(-1))
        mixed.combine(true)
        mixed.combine(false)
        #expect(mixed.finalize() == 0xaf952d5e52943960)
    }

    @Test("a recorder that hashes no events counts and keeps them as one that does; its digest is an empty trace's")
    func recorderWithoutHashing() {
        let hashing = TraceRecorder<Ping>(keepsEntries: true)
        let plain = TraceRecorder<Ping>(keepsEntries: true, hashesEvents: false)
        for id in 0..<5 as Range<Int64> {
            hashing.record(Ping(id: id), at: .seconds(id))
            plain.record(Ping(id: id), at: .seconds(id))
        }
        #expect(plain.count == 5 && plain.entries.map(\.event.id) == hashing.entries.map(\.event.id))
        #expect(plain.digest == TraceRecorder<Ping>(keepsEntries: false).digest)
        #expect(hashing.digest != plain.digest)
    }

    @Test("StableHasher frames strings and agrees across integer types")
    func hasherFraming() {
        func hash(_ body: (inout StableHasher) -> Void) -> UInt64 {
            var hasher = StableHasher()
            body(&hasher)
            return hasher.finalize()
        }
        #expect(hash { $0.combine("a"); $0.combine("b") } != hash { $0.combine("ab") })
        #expect(hash { $0.combine(-5 as Int) } == hash { $0.combine(Int64(-5)) })
        #expect(hash { $0.combine(VirtualTime.seconds(1)) } == hash { $0.combine(Int64(1_000_000)) })
        #expect(hash { $0.combine(Seed(9)) } == hash { $0.combine(9 as UInt64) })
        #expect(hash { $0.combine(0 as UInt64) } != hash { _ in })
        var hasher = StableHasher()
        hasher.combine("x")
        #expect(hasher.finalize() == hasher.finalize())
    }

    @Test("the trace digest depends on events, their times and their order")
    func recorderDigest() {
        func digest(_ events: [(Int64, Int64)]) -> TraceDigest {
            let recorder = TraceRecorder<Ping>(keepsEntries: false)
            for (time, id) in events { recorder.record(Ping(id: id), at: VirtualTime(microseconds: time)) }
            return recorder.digest
        }
        let base = digest([(0, 1), (5, 2)])
        #expect(base == digest([(0, 1), (5, 2)]))
        #expect(base != digest([(5, 2), (0, 1)]))
        #expect(base != digest([(0, 1), (6, 2)]))
        #expect(base != digest([(0, 1), (5, 3)]))
        #expect(base != digest([(0, 1)]))
        #expect(digest([]) == TraceDigest(StableHasher().finalize()))
    }

    @Test("a recorder keeps entries only when asked; count and digest are the same either way")
    func recorderEntries() {
        let fast = TraceRecorder<Note>(keepsEntries: false)
        let full = TraceRecorder<Note>(keepsEntries: true)
        for recorder in [fast, full] {
            recorder.record(Note(text: "a"), at: .zero)
            recorder.record(Note(text: "b"), at: .seconds(1))
        }
        #expect(fast.entries.isEmpty && fast.count == 2)
        #expect(full.entries.map(\.event.text) == ["a", "b"])
        #expect(full.entries.map(\.time) == [.zero, .seconds(1)])
        #expect(fast.digest == full.digest)
    }

    @Test("the default event hash covers name, field keys and tagged values")
    func defaultEventHash() {
        func hash(_ note: Note) -> UInt64 {
            var hasher = StableHasher()
            note.hash(into: &hasher)
            return hasher.finalize()
        }
        #expect(hash(Note(text: "a")) == hash(Note(text: "a")))
        #expect(hash(Note(text: "a")) != hash(Note(text: "b")))
        func valueHash(_ value: TraceValue) -> UInt64 {
            var hasher = StableHasher()
            value.hash(into: &hasher)
            return hasher.finalize()
        }
        #expect(valueHash(.int(1)) != valueHash(.bool(true)))
        #expect(valueHash(.string("1")) != valueHash(.int(1)))
    }

    @Test("digests print as 16 lowercase hex digits and parse back")
    func digestText() {
        #expect(TraceDigest(0x4d2).description == "00000000000004d2")
        #expect(TraceDigest(parsing: "00000000000004D2") == TraceDigest(0x4d2))
        #expect(TraceDigest(parsing: "4d2") == nil)
        #expect(TraceDigest(parsing: "0x000000000004d2") == nil)
        #expect(TraceDigest(parsing: "+000000000004d2") == nil)
    }

    @Test("trace values print on one line")
    func valueText() {
        #expect(TraceValue.int(-3).description == "-3")
        #expect(TraceValue.bool(false).description == "false")
        #expect(TraceValue.string("say \"hi\"\n").description == "\"say \\\"hi\\\"\\n\"")
    }

    @Test("the campaign digest depends on run order, and shards merge to the whole")
    func combiner() {
        let digests = (0..<10).map { TraceDigest(SplitMix64.mix(UInt64($0) + 1)) }
        var whole = DigestCombiner()
        for digest in digests { whole.add(digest) }
        var reversed = DigestCombiner()
        for digest in digests.reversed() { reversed.add(digest) }
        #expect(whole.digest != reversed.digest)
        var odd = DigestCombiner()
        var even = DigestCombiner()
        for (index, digest) in digests.enumerated() {
            if index % 2 == 0 {
                even.add(digest, runIndex: UInt64(index))
            } else {
                odd.add(digest, runIndex: UInt64(index))
            }
        }
        var merged = DigestCombiner(sum: odd.sum, count: odd.count)
        merged.merge(even)
        #expect(merged == whole)
        #expect(merged.digest == whole.digest)
        var changed = DigestCombiner()
        for (index, digest) in digests.enumerated() {
            changed.add(index == 4 ? TraceDigest(digest.value ^ 1) : digest)
        }
        #expect(changed.digest != whole.digest)
        #expect(DigestCombiner().digest != whole.digest)
    }
}
