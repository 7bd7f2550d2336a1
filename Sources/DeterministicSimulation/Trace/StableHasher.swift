/// A 64-bit hash that is the same in every process, on every platform, forever.
///
/// Swift's `Hasher` is seeded per process, so `hashValue` differs between two runs of the same
/// program; digests that prove "the same run happened again" need their own hash. This is a
/// word-at-a-time hash built on the SplitMix64 finalizer (``SplitMix64/mix(_:)``).
///
/// ```swift
/// var hasher = StableHasher()
/// hasher.combine("task.begin")
/// hasher.combine(Int64(42))
/// let digest = hasher.finalize()
/// ```
///
/// Contract (algorithm "StableHasher v1", pinned by golden tests):
/// - the state starts at `0x6a09e667f3bcc908` with a word count of 0;
/// - `combine(word)` sets `state = mix((state ^ word) &+ 0x9e3779b97f4a7c15)` and counts the word;
/// - integers are one word each (`Int64` and `Int` by their two's-complement bit pattern),
///   `Bool` is the word 1 or 0;
/// - a `String` is its UTF-8 byte count as one word, then its UTF-8 bytes in 8-byte
///   little-endian words, the last one zero-padded (so `"a"` then `"b"` differs from `"ab"`);
/// - `finalize()` returns `mix(state ^ (count &* 0x9e3779b97f4a7c15))` and leaves the hasher
///   usable.
///
/// Values are not tagged with their type: `combine(true)` equals `combine(1 as UInt64)`. Tag
/// them yourself where that matters. Not cryptographic: it detects accidental differences, not
/// forgeries. Each word costs two multiplications; nothing allocates.
public struct StableHasher: Sendable {
    /// The running state.
    @usableFromInline internal var state: UInt64
    /// The number of words combined so far.
    @usableFromInline internal var wordCount: UInt64

    /// A fresh hasher.
    ///
    /// ```swift
    /// var hasher = StableHasher()
    /// ```
    @inlinable
    public init() {
        state = 0x6a09_e667_f3bc_c908
        wordCount = 0
    }

    /// Feeds one 64-bit word.
    ///
    /// ```swift
    /// hasher.combine(seed.rawValue)
    /// ```
    ///
    /// - Complexity: O(1).
    @inlinable
    public mutating func combine(_ value: UInt64) {
        state = SplitMix64.mix((state ^ value) &+ SplitMix64.gamma)
        wordCount &+= 1
    }

    /// Feeds a signed 64-bit integer by its bit pattern.
    ///
    /// ```swift
    /// hasher.combine(time.microseconds)
    /// ```
    @inlinable
    public mutating func combine(_ value: Int64) {
        combine(UInt64(bitPattern: value))
    }

    /// Feeds an `Int` as an `Int64` (the same word on 32- and 64-bit platforms).
    ///
    /// ```swift
    /// hasher.combine(queue.rawValue)
    /// ```
    @inlinable
    public mutating func combine(_ value: Int) {
        combine(UInt64(bitPattern: Int64(value)))
    }

    /// Feeds a Boolean as the word 1 or 0.
    ///
    /// ```swift
    /// hasher.combine(info.isTimer)
    /// ```
    @inlinable
    public mutating func combine(_ value: Bool) {
        combine(value ? 1 as UInt64 : 0)
    }

    /// Feeds a string: its UTF-8 length, then its UTF-8 bytes packed into little-endian words.
    ///
    /// ```swift
    /// hasher.combine("scheduler")
    /// ```
    ///
    /// - Complexity: O(UTF-8 length); no allocation for native strings.
    public mutating func combine(_ value: String) {
        let utf8 = value.utf8
        combine(UInt64(utf8.count))
        let done: Void? = utf8.withContiguousStorageIfAvailable { buffer in
            combine(bytes: UnsafeRawBufferPointer(buffer))
        }
        if done == nil {
            Array(utf8).withUnsafeBytes { combine(bytes: $0) }
        }
    }

    /// Feeds raw bytes packed into 8-byte little-endian words, the last one zero-padded
    /// (no length prefix: add one first if the byte count varies).
    ///
    /// ```swift
    /// bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    /// ```
    ///
    /// - Complexity: O(byte count).
    public mutating func combine(bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            combine(UInt64(littleEndian: word))
            offset += 8
        }
        if offset < bytes.count {
            var last: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count {
                last |= UInt64(bytes[offset]) << shift
                shift += 8
                offset += 1
            }
            combine(last)
        }
    }

    /// The hash of everything combined so far; the hasher stays usable.
    ///
    /// ```swift
    /// let digest = TraceDigest(hasher.finalize())
    /// ```
    ///
    /// - Complexity: O(1).
    @inlinable
    public func finalize() -> UInt64 {
        SplitMix64.mix(state ^ (wordCount &* SplitMix64.gamma))
    }
}
