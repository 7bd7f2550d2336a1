/// Makes the plan of a coverage-guided run (a *mutant*) from the corpus: a parent's recorded
/// choices with blocks redrawn, deleted or inserted, its tail redrawn, or a splice of two
/// parents. A plan's ``ChoiceSource/fillMarker`` values and everything past its end are drawn
/// from the mutant's own run seed (``ChoiceSource/init(replaying:filling:)``).
///
/// ```swift
/// var generator = Xoshiro256StarStar(seed: runSeed.derive("mutation").rawValue)
/// let plan = ChoiceMutator.plan(parent: corpus[2], other: corpus[0], generator: &generator)
/// let verdict = target.run(choices: ChoiceSource(replaying: plan, filling: runSeed), keepTrace: false)
/// ```
///
/// Contract: deterministic in its inputs (the generator's draws only); one to three operations
/// stacked (libFuzzer's and AFL's "havoc"); blocks are 1 to ``maxBlock`` draws. Positions are
/// draw positions, not actions: after a deletion or insertion the later draws are read by other
/// decisions, which is what makes a mutant differ from its parent beyond the edited block (a
/// value that does not fit its new draw falls back to 0, the simplest outcome).
enum ChoiceMutator {
    /// The longest block an operation redraws, deletes or inserts.
    static let maxBlock = 32

    /// The operations, in the order their draw selects them.
    enum Operation: Int, CaseIterable {
        /// Keep a prefix, draw the rest at random: explores on from where the parent was.
        case redrawTail
        /// Redraw a block in place, keep the rest.
        case redrawBlock
        /// Delete a block (the later draws move earlier).
        case deleteBlock
        /// Insert a block of random draws.
        case insertBlock
        /// The parent's prefix, then the other entry's suffix.
        case splice
    }

    /// A mutant's plan from `parent` (and `other`, for a splice).
    static func plan(parent: ChoiceSequence, other: ChoiceSequence, generator: inout Xoshiro256StarStar) -> ChoiceSequence {
        var values = parent.values
        let operations = 1 + Int(generator.next(below: 3))
        for _ in 0..<operations {
            let operation = Operation(rawValue: Int(generator.next(below: UInt64(Operation.allCases.count))))!
            apply(operation, to: &values, other: other.values, generator: &generator)
        }
        return ChoiceSequence(values)
    }

    static func apply(_ operation: Operation, to values: inout [UInt64], other: [UInt64],
                      generator: inout Xoshiro256StarStar) {
        let position = Int(generator.next(below: UInt64(values.count + 1)))
        let length = 1 + Int(generator.next(below: UInt64(maxBlock)))
        let end = min(values.count, position + length)
        switch operation {
        case .redrawTail:
            values.removeSubrange(position...)
        case .redrawBlock:
            values.replaceSubrange(position..<end, with: repeatElement(ChoiceSource.fillMarker, count: end - position))
        case .deleteBlock:
            values.removeSubrange(position..<end)
        case .insertBlock:
            values.insert(contentsOf: repeatElement(ChoiceSource.fillMarker, count: length), at: position)
        case .splice:
            // The other entry's suffix from near the same position: the draws keep roughly their meaning.
            let from = min(other.count, max(0, position + Int(generator.next(below: 65)) - 32))
            values.replaceSubrange(position..., with: other[from...])
        }
    }
}
