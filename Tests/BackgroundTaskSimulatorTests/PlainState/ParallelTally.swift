import Foundation

/// A count that parallel work keeps (a `concurrentPerform`'s iterations, an `OperationQueue`'s
/// operations), the ways apps keep one: bumped with no lock (the bug), behind an `NSLock`, or one
/// slot per piece of work, summed once every piece is done.
final class ParallelTally: @unchecked Sendable {
    // @unchecked: `counted` is guarded by `lock` (not in `.unguarded`, whose ordering is the
    // test's point); each slot is written by its own piece and read once all are done.
    enum Keeping: Sendable { case unguarded, locked, slots }
    final class Slot: @unchecked Sendable {
        // @unchecked: written by one piece of work, read after every piece is done.
        var amount = 0
    }

    let keeping: Keeping
    private let lock = NSLock()
    var counted = 0
    let slots: [Slot]

    init(keeping: Keeping, pieces: Int) {
        self.keeping = keeping
        slots = (0..<pieces).map { _ in Slot() }
    }

    /// Piece `piece` of the work adds `amount`.
    func record(_ piece: Int, amount: Int) {
        switch keeping {
        case .unguarded: counted += amount
        case .locked: lock.withLock { counted += amount }
        case .slots: slots[piece].amount = amount
        }
    }

    /// Once every piece is done: the total.
    func total() -> Int {
        keeping == .slots ? slots.reduce(0) { $0 + $1.amount } : counted
    }
}
