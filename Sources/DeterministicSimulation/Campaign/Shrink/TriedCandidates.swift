/// What a shrink already knows about candidates, in one trie of values: the candidates it judged,
/// and the fronts its finished replays read, so that a candidate that starts with one of those
/// is judged without running it.
///
/// ```swift
/// var tried = TriedCandidates()
/// tried.insert([3, 0, 7, 9][...], as: .candidate)   // judged this candidate; its replay read
/// tried.insert([3, 0, 7][...], as: .readFront)      //   only these three values, then ended
/// tried.knowledge(of: [3, 0, 7, 9])   // .judged: the same candidate again
/// tried.knowledge(of: [3, 0, 7, 5])   // .readByReplay: replays the run [3, 0, 7] led to
/// tried.knowledge(of: [3, 0])         // .unknown: this one would read past its end
/// ```
///
/// Why a read front decides: a run reads its values in order and, given the same values, does the
/// same (determinism is the product), so a candidate whose front is exactly what an earlier
/// finished replay read replays that run (same events, verdict and recording); what follows is
/// never read. Hypothesis's data tree answers the same question. Only a plain replay in this
/// process that read nothing past its sequence's end and was not cut off by a cost budget may
/// insert its front (``ChoiceSource/replayedPrefixLength``).
///
/// Contract: nodes are first-child/next-sibling links in one array (16 bytes a node, at most
/// 2^30 - 1 nodes); a read front under a shorter one adds nothing, a judged candidate is always
/// marked (an exact repeat is told apart from a candidate known by its front). ``bytes`` counts
/// the nodes, for the shrink's cache bound.
///
/// - Complexity: ``insert(_:as:maxAddedBytes:)`` and ``knowledge(of:)`` walk one path:
///   O(length × siblings per node); most nodes have one child.
struct TriedCandidates {
    /// What ``insert(_:as:maxAddedBytes:)`` records.
    enum Mark {
        /// A candidate judged, exactly as given.
        case candidate
        /// The front a finished replay read: every sequence that starts with it is known.
        case readFront
    }

    /// What is known about a candidate.
    enum Knowledge: Equatable {
        /// Neither judged nor decided by a read front: it must run.
        case unknown
        /// Judged before, exactly as it is now.
        case judged
        /// Starts with a front a finished replay read: its run is that run.
        case readByReplay
    }

    /// 16 bytes: the value and two links, the marks in the first link's top bits.
    private struct Node {
        static let candidateMark: UInt32 = 1 << 31
        static let readFrontMark: UInt32 = 1 << 30
        static let linkMask: UInt32 = (1 << 30) - 1
        /// The most nodes a trie holds (links are 30 bits, 0 meaning none).
        static let maxCount = Int(linkMask)

        var value: UInt64
        /// The first child's index + 1 (0: none) in the low 30 bits, and the marks.
        var firstChildAndMarks: UInt32 = 0
        /// The next sibling's index + 1 (0: none).
        var nextSibling: UInt32 = 0

        var firstChild: Int? { firstChildAndMarks & Self.linkMask == 0 ? nil : Int(firstChildAndMarks & Self.linkMask) - 1 }
        var isCandidate: Bool { firstChildAndMarks & Self.candidateMark != 0 }
        var isReadFront: Bool { firstChildAndMarks & Self.readFrontMark != 0 }
    }

    /// The root (index 0) stands for the empty sequence.
    private var nodes: [Node] = [Node(value: 0)]

    /// The bytes one more node costs (its stride), as the shrink's cache bound counts them.
    static let bytesPerNode = MemoryLayout<Node>.stride

    /// The bytes the nodes hold.
    var bytes: Int { nodes.count * Self.bytesPerNode }

    /// What is known about `values` (an exact repeat first).
    func knowledge(of values: [UInt64]) -> Knowledge {
        var node = 0
        var passedReadFront = false
        for value in values {
            passedReadFront = passedReadFront || nodes[node].isReadFront
            guard let child = child(of: node, value: value) else {
                return passedReadFront ? .readByReplay : .unknown
            }
            node = child
        }
        if nodes[node].isCandidate { return .judged }
        return passedReadFront || nodes[node].isReadFront ? .readByReplay : .unknown
    }

    /// Records `values` as `mark`, unless that adds more than `maxAddedBytes` of nodes (then
    /// nothing is added) or a read front is already covered by a shorter one. Returns the bytes
    /// added.
    @discardableResult
    mutating func insert(_ values: ArraySlice<UInt64>, as mark: Mark, maxAddedBytes: Int = .max) -> Int {
        var node = 0
        var index = values.startIndex
        while index < values.endIndex, let child = child(of: node, value: values[index]) {
            if mark == .readFront, nodes[node].isReadFront { return 0 }
            node = child
            index += 1
        }
        if mark == .readFront, nodes[node].isReadFront { return 0 }
        let added = (values.endIndex - index) * Self.bytesPerNode
        guard added <= maxAddedBytes, nodes.count + (values.endIndex - index) <= Node.maxCount else { return 0 }
        while index < values.endIndex {
            let parent = nodes[node].firstChildAndMarks
            nodes.append(Node(value: values[index], nextSibling: parent & Node.linkMask))
            nodes[node].firstChildAndMarks = parent & ~Node.linkMask | UInt32(nodes.count)  // the new one's index + 1
            node = nodes.count - 1
            index += 1
        }
        nodes[node].firstChildAndMarks |= mark == .candidate ? Node.candidateMark : Node.readFrontMark
        return added
    }

    private func child(of node: Int, value: UInt64) -> Int? {
        var next = nodes[node].firstChild
        while let index = next {
            if nodes[index].value == value { return index }
            next = nodes[index].nextSibling == 0 ? nil : Int(nodes[index].nextSibling) - 1
        }
        return nil
    }
}
