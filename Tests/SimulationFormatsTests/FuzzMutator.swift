/// Byte-level mutations of JSON documents for the parser fuzz test.
///
/// Every mutation is drawn from a `TestRandom`, so mutant `i` of a run is the same forever.
struct FuzzMutator {
    var random: TestRandom
    let seeds: [[UInt8]]

    /// A seed document with one to four stacked mutations.
    mutating func mutant() -> [UInt8] {
        var bytes = random.pick(seeds)
        for _ in 0..<random.int(in: 1...4) {
            mutate(&bytes)
        }
        return bytes
    }

    mutating func mutate(_ bytes: inout [UInt8]) {
        switch random.below(12) {
        case 0: flipBytes(&bytes)
        case 1: deleteRange(&bytes)
        case 2: duplicateRange(&bytes)
        case 3, 4: insertFragment(&bytes)
        case 5: truncate(&bytes)
        case 6: splice(&bytes)
        case 7, 8: replaceValue(&bytes)
        case 9: duplicateMember(&bytes)
        case 10: insertInvalidUTF8(&bytes)
        default: swapBytes(&bytes)
        }
    }

    private mutating func position(in bytes: [UInt8]) -> Int {
        random.int(in: 0...bytes.count)
    }

    private mutating func range(in bytes: [UInt8]) -> Range<Int> {
        let start = position(in: bytes)
        let length = random.int(in: 0...min(32, bytes.count - start))
        return start..<(start + length)
    }

    private mutating func flipBytes(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        for _ in 0..<random.int(in: 1...3) {
            let index = random.below(bytes.count)
            if random.chance(1, in: 2) {
                bytes[index] ^= UInt8(1) << UInt8(random.below(8))
            } else {
                bytes[index] = UInt8(truncatingIfNeeded: random.next())
            }
        }
    }

    private mutating func swapBytes(_ bytes: inout [UInt8]) {
        guard bytes.count >= 2 else { return }
        bytes.swapAt(random.below(bytes.count), random.below(bytes.count))
    }

    private mutating func deleteRange(_ bytes: inout [UInt8]) {
        bytes.removeSubrange(range(in: bytes))
    }

    private mutating func duplicateRange(_ bytes: inout [UInt8]) {
        let copied = Array(bytes[range(in: bytes)])
        bytes.insert(contentsOf: copied, at: position(in: bytes))
    }

    private mutating func insertFragment(_ bytes: inout [UInt8]) {
        var fragment = random.pick(FuzzSeeds.fragments)
        if random.chance(1, in: 8) {
            fragment = Array(repeatElement(fragment, count: random.int(in: 2...64)).joined())
        }
        bytes.insert(contentsOf: fragment, at: position(in: bytes))
    }

    private mutating func truncate(_ bytes: inout [UInt8]) {
        bytes.removeSubrange(position(in: bytes)...)
    }

    private mutating func splice(_ bytes: inout [UInt8]) {
        let other = random.pick(seeds)
        bytes = Array(bytes[..<position(in: bytes)]) + Array(other[random.int(in: 0...other.count)...])
    }

    private mutating func insertInvalidUTF8(_ bytes: inout [UInt8]) {
        let bad: [UInt8] = random.pick([[0xFF], [0xC0, 0x80], [0xED, 0xB0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80],
                                        [0xE2, 0x28, 0xA1], [0x80, 0x80], [0xF0, 0x9F]])
        bytes.insert(contentsOf: bad, at: position(in: bytes))
    }

    /// The first index at or after a random position whose byte is one of `targets`, if any.
    private mutating func randomIndex(of targets: [UInt8], in bytes: [UInt8]) -> Int? {
        var index = position(in: bytes)
        while index < bytes.count {
            let byte = bytes[index]
            if byte == targets[0] || byte == targets[targets.count - 1] || byte == targets[targets.count / 2] {
                return index
            }
            index += 1
        }
        return nil
    }

    /// Replaces the token after a ':', '[' or ',' with a value of another type.
    private mutating func replaceValue(_ bytes: inout [UInt8]) {
        guard let found = randomIndex(of: Array(":[,".utf8), in: bytes) else { return }
        var start = found + 1
        while start < bytes.count, bytes[start] == UInt8(ascii: " ") { start += 1 }
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: ","), bytes[end] != UInt8(ascii: "}"),
            bytes[end] != UInt8(ascii: "]") {
            end += 1
        }
        let replacement = random.pick([
            "null", "true", "false", "0", "-1", "1.5e3", "\"text\"", "\"\\u00e9\\\"\"", "[]", "{}",
            "[1, \"a\", null]", "{\"k\": {\"k\": [true]}}", "12345678901234567890", "-0.0",
        ])
        bytes.replaceSubrange(start..<end, with: Array(replacement.utf8))
    }

    /// Copies a `"key": value,` stretch right after itself, creating a duplicate key.
    private mutating func duplicateMember(_ bytes: inout [UInt8]) {
        guard let comma = randomIndex(of: Array(",".utf8), in: bytes) else { return }
        var start = comma
        while start > 0, bytes[start - 1] != UInt8(ascii: ","), bytes[start - 1] != UInt8(ascii: "{") {
            start -= 1
        }
        bytes.insert(contentsOf: Array(bytes[start...comma]), at: comma + 1)
    }
}
