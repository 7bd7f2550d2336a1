/// A set of queue indices, visited in index order: the first 64 queues in one word held inline
/// (a run rarely has more), the rest in further words.
///
/// ```swift
/// var open = QueueBits()
/// open.insert(3); open.insert(70)
/// open.contains(70)                                // true
/// var bits = open.word(0) & queued.word(0)         // queues 0 to 63 in both sets
/// ```
///
/// Contract: indices are non-negative; ``word(_:)`` past the last word is 0, so the
/// intersection of two sets is the word-wise `&` over the first's words (see ``Cursor``). The
/// scheduler core visits its open, non-empty queues this way instead of walking every open queue
/// (``SchedulerCore/gatherCandidates(now:)``), in the same order.
struct QueueBits: Equatable {
    /// Queues 0 to 63.
    private(set) var low: UInt64 = 0
    /// Queues from 64 on, 64 to a word.
    private(set) var high: [UInt64] = []

    init() {}

    /// A set holding `queue`.
    init(members queue: Int) {
        insert(queue)
    }

    /// The number of words that may hold a member.
    @inline(__always)
    var wordCount: Int { 1 &+ high.count }

    /// Word `index`: queues `64 * index` to `64 * index + 63`, one bit each (0 past the end).
    @inline(__always)
    func word(_ index: Int) -> UInt64 {
        if index == 0 { return low }
        return index <= high.count ? high[index &- 1] : 0
    }

    @inline(__always)
    mutating func insert(_ queue: Int) {
        if queue < 64 {
            low |= 1 &<< UInt64(queue)
        } else {
            insertHigh(queue)
        }
    }

    @inline(__always)
    mutating func remove(_ queue: Int) {
        if queue < 64 {
            low &= ~(1 &<< UInt64(queue))
        } else if queue / 64 <= high.count {
            high[queue / 64 - 1] &= ~(1 &<< UInt64(queue % 64))
        }
    }

    func contains(_ queue: Int) -> Bool {
        word(queue / 64) & (1 &<< UInt64(queue % 64)) != 0
    }

    /// Every member, in index order.
    var members: [Int] {
        var result: [Int] = []
        for index in 0..<wordCount {
            var bits = word(index)
            while bits != 0 {
                result.append(index * 64 + bits.trailingZeroBitCount)
                bits &= bits &- 1
            }
        }
        return result
    }

    private mutating func insertHigh(_ queue: Int) {
        let index = queue / 64 - 1
        while high.count <= index { high.append(0) }
        high[index] |= 1 &<< UInt64(queue % 64)
    }
}

extension QueueBits {
    /// Visits the members of two sets' intersection in index order, reading the sets as it goes
    /// (it holds no copy of them, so visiting retains nothing).
    ///
    /// ```swift
    /// var cursor = QueueBits.Cursor(open, queued)
    /// while let queue = cursor.next(open, queued) { visit(queue) }
    /// ```
    ///
    /// Contract: pass the same two sets to every ``next(_:_:)``. A member of the word being
    /// visited that is removed meanwhile may still be returned; later words are read when
    /// reached.
    struct Cursor {
        private var wordIndex = 0
        private var bits: UInt64

        @inline(__always)
        init(_ first: QueueBits, _ second: QueueBits) {
            bits = first.low & second.low
        }

        @inline(__always)
        mutating func next(_ first: QueueBits, _ second: QueueBits) -> Int? {
            while bits == 0 {
                wordIndex &+= 1
                if wordIndex >= first.wordCount { return nil }
                bits = first.word(wordIndex) & second.word(wordIndex)
            }
            let member = wordIndex &* 64 &+ bits.trailingZeroBitCount
            bits &= bits &- 1
            return member
        }
    }
}
