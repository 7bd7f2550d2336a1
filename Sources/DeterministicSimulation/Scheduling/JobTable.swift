/// Storage for the jobs of one scheduler: closures in reusable slots, and one "finished" bit per
/// job number.
///
/// A job number's bit is set once the job can no longer run: a one-shot job when it starts, any
/// job when it is cancelled. So a heap entry whose bit is set is a cancelled job, skipped and
/// freed lazily when it surfaces; cancelling is O(1) and never searches the heaps.
///
/// Memory: one bit per job ever scheduled (1.25 MB per 10 million jobs) plus one slot per
/// pending job.
struct JobTable {
    /// What a slot holds: the work, the repeat interval (0 for one-shot jobs) and the timer flag.
    private struct Slot {
        var work: (() -> Void)?
        var interval: Int64
        var isTimer: Bool
    }

    private var slots: [Slot] = []
    private var freeSlots: [Int32] = []
    private var finishedBits: [UInt64] = []
    /// The number the next job gets.
    private(set) var nextNumber: UInt64 = 1

    /// Takes the next job number.
    mutating func takeNumber() -> UInt64 {
        let number = nextNumber
        nextNumber += 1
        if Int((number - 1) >> 6) == finishedBits.count { finishedBits.append(0) }
        return number
    }

    /// Whether `number` was handed out by ``takeNumber()``.
    func isKnown(_ number: UInt64) -> Bool {
        number >= 1 && number < nextNumber
    }

    /// Whether job `number` can no longer run (started one-shot, or cancelled).
    @inline(__always)
    func isFinished(_ number: UInt64) -> Bool {
        let bit = number - 1
        return finishedBits[Int(bit >> 6)] & (1 << (bit & 63)) != 0
    }

    mutating func markFinished(_ number: UInt64) {
        let bit = number - 1
        finishedBits[Int(bit >> 6)] |= 1 << (bit & 63)
    }

    /// Stores a job's closure and returns its slot.
    mutating func store(_ work: consuming @escaping () -> Void, interval: Int64, isTimer: Bool) -> Int32 {
        let slot = Slot(work: consume work, interval: interval, isTimer: isTimer)
        if let free = freeSlots.popLast() {
            slots[Int(free)] = slot
            return free
        }
        slots.append(slot)
        return Int32(slots.count - 1)
    }

    func work(at slot: Int32) -> () -> Void {
        guard let work = slots[Int(slot)].work else {
            preconditionFailure("scheduler slot \(slot) is empty: a job was freed twice")
        }
        return work
    }

    /// Moves a job's closure out and frees its slot (a move: no retain and release, as a copy
    /// followed by clearing the slot would cost).
    mutating func takeWork(at slot: Int32) -> () -> Void {
        guard let work = slots[Int(slot)].work.take() else {
            preconditionFailure("scheduler slot \(slot) is empty: a job was freed twice")
        }
        freeSlots.append(slot)
        return work
    }

    func interval(at slot: Int32) -> Int64 { slots[Int(slot)].interval }

    func isTimer(at slot: Int32) -> Bool { slots[Int(slot)].isTimer }

    /// Frees a slot and hands its closure to the caller, to be released later (outside any
    /// access to the scheduler's state).
    mutating func take(_ slot: Int32) -> (() -> Void)? {
        let work = slots[Int(slot)].work.take()
        freeSlots.append(slot)
        return work
    }

    /// The number of slots in use (for invariant checks).
    var occupiedSlotCount: Int { slots.count - freeSlots.count }
}
