@testable import DeterministicSimulation
import Testing

/// The coverage a campaign reports is the runs' coverages merged one by one in run-index order,
/// whichever worker tallied which run and whatever shapes the runs' categories take (the tally
/// sums same-shaped categories by position and hashes only the rest).
@Suite("Coverage tally")
struct CoverageTallyTests {
    /// A run's coverage as a simulated run makes it: fixed categories copied from one template,
    /// and a probes category with the probes the run reached, in the order it reached them.
    static func coverage(run: Int, probes: [String], choices: ChoiceSource) -> Coverage {
        var coverage = template
        for _ in 0..<choices.int(in: 0...6) {
            let category = choices.int(in: 0...1)
            coverage.add(count: choices.int(in: 0...3), at: (category, choices.int(in: 0...(category == 0 ? 2 : 3))))
        }
        for probe in probes { coverage.add(Coverage.probesCategory, probe, count: choices.int(in: 1...2)) }
        if choices.bool(probability: 0.05) { coverage.add("rare-\(run % 3)", "seen") }  // a category only some runs have
        return coverage
    }

    static let template: Coverage = {
        var template = Coverage()
        for state in ["active", "background", "suspended"] { template.add("states", state, count: 0) }
        for action in ["open", "home", "lock", "expire"] { template.add("actions", action, count: 0) }
        return template
    }()

    /// The probes a run reached: none, or some of `pool` in a drawn order.
    static func probes(_ pool: [String], choices: ChoiceSource) -> [String] {
        var left = pool
        var reached: [String] = []
        while !left.isEmpty, choices.bool(probability: 0.5) {
            reached.append(left.remove(at: choices.int(in: 0...(left.count - 1))))
        }
        return reached
    }

    /// Tallies `coverages` on `workers` workers (run i on worker i % workers, the runs finishing
    /// in a drawn order) and merges the workers' tallies in reverse order.
    static func tallied(_ coverages: [Coverage], workers: Int, choices: ChoiceSource) -> Coverage {
        var parts = [CoverageTally](repeating: CoverageTally(), count: workers)
        var left = Array(coverages.indices)
        while !left.isEmpty {
            let index = left.remove(at: choices.int(in: 0...(left.count - 1)))
            parts[index % workers].add(coverages[index], runIndex: index)
        }
        var merged = CoverageTally()
        for part in parts.reversed() { merged.merge(part) }
        return merged.coverage
    }

    @Test("equals merging in run-index order, with a few probe orders or with more than a position keeps",
          arguments: [["url-cancelled", "retry"], ["a", "b", "c", "d", "e"]])
    func mergesInRunOrder(pool: [String]) {
        let choices = ChoiceSource(seed: Seed(0xc0fe))
        let coverages = (0..<400).map { Self.coverage(run: $0, probes: Self.probes(pool, choices: choices), choices: choices) }
        var expected = Coverage()
        for coverage in coverages { expected.merge(coverage) }
        for workers in [1, 2, 3, 7] {
            let merged = Self.tallied(coverages, workers: workers, choices: choices)
            #expect(merged == expected, "workers: \(workers)")
            #expect(merged.categories.map(\.name) == expected.categories.map(\.name))
            #expect(merged.categories.map(\.names) == expected.categories.map(\.names))
        }
        let shapes = Set(coverages.map { $0.entries(Coverage.probesCategory).map(\.name) })
        #expect(pool.count == 2 ? shapes.count <= 5 : shapes.count > 8, "both the dense and the hashed path are taken")
    }

    @Test("a run whose categories come in another order ranks its entries by its own positions")
    func categoryPositions() {
        var first = Coverage()
        first.add("actions", "open")
        first.add("states", "background", count: 0)
        var second = Coverage()
        second.add("states", "active")
        second.add("states", "background")
        second.add("actions", "home")
        var expected = Coverage()
        expected.merge(first)
        expected.merge(second)
        var tally = CoverageTally()
        tally.add(second, runIndex: 1)
        tally.add(first, runIndex: 0)
        #expect(tally.coverage == expected)
        #expect(tally.coverage.categories.map(\.name) == ["actions", "states"])
        #expect(tally.coverage.entries("states").map(\.name) == ["background", "active"])
    }
}
