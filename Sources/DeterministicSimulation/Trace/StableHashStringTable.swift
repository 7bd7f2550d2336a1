/// The words ``StableHasher`` feeds for each string of a fixed list, computed once, so hashing a
/// known name (an enum case's raw value, say) costs only its words, not a walk of its UTF-8.
///
/// ```swift
/// let names = StableHashStringTable(["active", "background"])
/// var hasher = StableHasher()
/// names.combine(1, into: &hasher)   // the same as hasher.combine("background")
/// ```
///
/// Contract: `combine(i, into:)` changes the hasher exactly as `combine(strings[i])` does (the
/// UTF-8 length word, then the bytes in little-endian words, the last zero-padded), so digests do
/// not change; a test checks every table in use against ``StableHasher/combine(_:)-(String)``.
public struct StableHashStringTable: Sendable {
    /// Every string's words, one after another.
    @usableFromInline internal let words: [UInt64]
    /// Where each string's words start in ``words``; one more entry than strings (the end).
    @usableFromInline internal let starts: [Int]

    /// Computes the words of each string, in order (index `i` is `strings[i]`).
    ///
    /// - Complexity: O(total UTF-8 length).
    public init(_ strings: [String]) {
        var words: [UInt64] = []
        var starts: [Int] = [0]
        for string in strings {
            let bytes = Array(string.utf8)
            words.append(UInt64(bytes.count))
            var offset = 0
            while offset < bytes.count {
                var word: UInt64 = 0
                var shift: UInt64 = 0
                while offset < bytes.count, shift < 64 {
                    word |= UInt64(bytes[offset]) << shift
                    shift += 8
                    offset += 1
                }
                words.append(word)
            }
            starts.append(words.count)
        }
        self.words = words
        self.starts = starts
    }

    /// The number of strings.
    public var count: Int { starts.count - 1 }

    /// Feeds string `index` into `hasher`, exactly as `hasher.combine(strings[index])` would.
    ///
    /// - Precondition: `0 <= index < count`.
    /// - Complexity: O(words of that string); no allocation.
    @inlinable
    public func combine(_ index: Int, into hasher: inout StableHasher) {
        var position = starts[index]
        let end = starts[index + 1]
        while position < end {
            hasher.combine(words[position])
            position += 1
        }
    }
}
