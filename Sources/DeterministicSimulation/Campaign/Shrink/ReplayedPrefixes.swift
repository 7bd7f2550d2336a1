/// The prefixes that finished replays read, so that the shrinker knows a candidate's outcome
/// without running it when the candidate starts with one of them.
///
/// ```swift
/// var prefixes = ReplayedPrefixes()
/// prefixes.insert([3, 0, 7][...])                // a replay read these three values and ended
/// prefixes.containsPrefix(of: [3, 0, 7, 9, 9])   // true: the run never reads past the 7
/// prefixes.containsPrefix(of: [3, 0])            // false: this one would read past its end
/// ```
///
/// Why it holds: a run reads its values in order and, given the same values, does the same
/// (determinism is the product), so a candidate whose front is exactly what an earlier replay
/// read replays that run: same events, same verdict, same recording; what follows is never read.
/// Hypothesis's data tree answers the same question. Only replays that read nothing past their
/// sequence's end and ran to completion (not cut off by a cost budget) may be inserted
/// (``ChoiceSource/replayedPrefixLength``).
///
/// Contract: a trie of values, stored as first-child/next-sibling links in one array; a prefix
/// already covered by a shorter one adds nothing. ``bytes`` counts what the nodes hold, for the
/// shrinker's cache bound.
///
/// - Complexity: ``insert(_:)`` and ``containsPrefix(of:)`` walk one path, O(length × siblings per
///   node); most nodes have one child.
struct ReplayedPrefixes {
    private struct Node {
        var value: UInt64
        var firstChild: Int32 = -1
        var nextSibling: Int32 = -1
        /// Whether a prefix ends here: every sequence through this node is known.
        var isEnd = false
    }

    /// The root (index 0) stands for the empty prefix.
    private var nodes: [Node] = [Node(value: 0)]

    /// The bytes one more node costs (its stride), as the shrinker's cache bound counts them.
    static let bytesPerNode = MemoryLayout<Node>.stride

    /// The bytes the nodes hold.
    var bytes: Int { nodes.count * Self.bytesPerNode }

    /// Whether some inserted prefix is a prefix of `values` (or equals it).
    func containsPrefix(of values: [UInt64]) -> Bool {
        var node = 0
        for value in values {
            if nodes[node].isEnd { return true }
            guard let child = child(of: node, value: value) else { return false }
            node = child
        }
        return nodes[node].isEnd
    }

    /// Adds `prefix` unless a shorter or equal prefix already covers it, or unless its new nodes
    /// would take more than `maxAddedBytes`. Returns the bytes added.
    @discardableResult
    mutating func insert(_ prefix: ArraySlice<UInt64>, maxAddedBytes: Int = .max) -> Int {
        var node = 0
        var index = prefix.startIndex
        while index < prefix.endIndex, let child = child(of: node, value: prefix[index]) {
            if nodes[node].isEnd { return 0 }
            node = child
            index += 1
        }
        if nodes[node].isEnd { return 0 }
        let added = (prefix.endIndex - index) * Self.bytesPerNode
        guard added <= maxAddedBytes, nodes.count + (prefix.endIndex - index) < Int(Int32.max) else { return 0 }
        while index < prefix.endIndex {
            let new = Int32(nodes.count)
            nodes.append(Node(value: prefix[index], nextSibling: nodes[node].firstChild))
            nodes[node].firstChild = new
            node = Int(new)
            index += 1
        }
        nodes[node].isEnd = true
        return added
    }

    private func child(of node: Int, value: UInt64) -> Int? {
        var next = nodes[node].firstChild
        while next >= 0 {
            if nodes[Int(next)].value == value { return Int(next) }
            next = nodes[Int(next)].nextSibling
        }
        return nil
    }
}
