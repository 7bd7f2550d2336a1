/// A sparse vector clock: for each causality component seen so far, the latest of its ticks that
/// happens before the owner's present. Components never seen are 0.
///
/// ```swift
/// var worker = VectorClock()
/// worker.tick(3)                       // component 3 at 1: worker's first step
/// var main = VectorClock()
/// main.join(worker)                    // main learns what worker did so far (a hand-off)
/// main.covers(component: 3, clock: 1)  // true: that step happens before main's present
/// ```
///
/// Representation: one `UInt64` per non-zero component, `component << 32 | clock`, sorted. Since
/// the component is in the high bits, sorting by the packed value sorts by component, and for one
/// component the larger packed value is the larger clock. A copy is a retain (copy-on-write), so
/// handing a clock to an enqueued job costs no allocation until one side ticks.
///
/// Complexity: ``value(of:)`` and ``covers(component:clock:)`` O(log n); ``tick(_:)`` O(n) at worst
/// (a new component is inserted), O(log n) otherwise; ``join(_:)`` O(n + m), allocating only when
/// neither clock covers the other.
struct VectorClock: Equatable {
    /// Packed entries, ascending; no component appears twice and no clock is 0.
    private(set) var entries: [UInt64] = []

    /// The position of `component`'s entry, or where it would be inserted.
    private func position(of component: UInt32) -> (index: Int, found: Bool) {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            let entry = UInt32(truncatingIfNeeded: entries[middle] >> 32)
            if entry == component { return (middle, true) }
            if entry < component { low = middle + 1 } else { high = middle }
        }
        return (low, false)
    }

    /// The clock of `component` (0 if never seen).
    func value(of component: UInt32) -> UInt32 {
        let (index, found) = position(of: component)
        return found ? UInt32(truncatingIfNeeded: entries[index]) : 0
    }

    /// Whether the step `clock` of `component` happens before this clock's present.
    func covers(component: UInt32, clock: UInt32) -> Bool {
        value(of: component) >= clock
    }

    /// Moves `component` one step on (a new epoch of the owner).
    mutating func tick(_ component: UInt32) {
        let (index, found) = position(of: component)
        if found {
            entries[index] &+= 1
        } else {
            entries.insert(UInt64(component) << 32 | 1, at: index)
        }
    }

    /// Takes in the step `clock` of `component` (and so everything before it on that component).
    mutating func join(component: UInt32, clock: UInt32) {
        guard clock > value(of: component) else { return }
        var step = VectorClock()
        step.entries = [UInt64(component) << 32 | UInt64(clock)]
        join(step)
    }

    /// Takes in everything `other` has seen: the componentwise maximum. When one of the two
    /// already covers the other (a lock taken back by its last holder, a job whose enqueuer's
    /// clock contains its queue's last end), it keeps or shares a buffer and allocates nothing.
    mutating func join(_ other: VectorClock) {
        if other.entries.isEmpty || other.entries == entries { return }
        if entries.isEmpty {
            entries = other.entries  // shares the buffer
            return
        }
        switch compare(with: other) {
        case .covers: return
        case .coveredBy: entries = other.entries
        case .neither: merge(other)
        }
    }

    /// How this clock and `other` are ordered: one covers the other (ties cover both ways: only
    /// equal clocks, which ``join(_:)`` handled), or neither.
    private func compare(with other: VectorClock) -> Order {
        var mineAhead = false  // a component of mine is later than theirs, or theirs lacks it
        var theirsAhead = false
        walk(with: other) { mine, theirs in
            if mine > theirs { mineAhead = true } else if mine < theirs { theirsAhead = true }
            return !(mineAhead && theirsAhead)
        }
        if mineAhead, theirsAhead { return .neither }
        return theirsAhead ? .coveredBy : .covers
    }

    private enum Order { case covers, coveredBy, neither }

    /// The componentwise maximum, into a new buffer.
    private mutating func merge(_ other: VectorClock) {
        var merged: [UInt64] = []
        merged.reserveCapacity(entries.count + other.entries.count)
        walk(with: other) { mine, theirs in
            merged.append(max(mine, theirs))
            return true
        }
        entries = merged
    }

    /// Calls `body` with each component either clock has, in order: the two packed entries, 0 for
    /// the side that lacks it (so `max` is the join's entry and `>` compares clocks); stops when
    /// `body` returns false.
    @inline(__always)
    private func walk(with other: VectorClock, _ body: (_ mine: UInt64, _ theirs: UInt64) -> Bool) {
        var left = 0
        var right = 0
        while left < entries.count || right < other.entries.count {
            // Past its end a side reads as the largest component: the other side's entries come first.
            let mine = left < entries.count ? entries[left] : .max
            let theirs = right < other.entries.count ? other.entries[right] : .max
            let proceed: Bool
            if mine >> 32 == theirs >> 32 {
                proceed = body(mine, theirs)
                left += 1
                right += 1
            } else if mine < theirs {
                proceed = body(mine, 0)
                left += 1
            } else {
                proceed = body(0, theirs)
                right += 1
            }
            if !proceed { return }
        }
    }
}
