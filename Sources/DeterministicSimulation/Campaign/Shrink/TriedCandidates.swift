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
    /// The nodes of the last ``lookUp(_:)``'s path (root first): where ``record(_:readFront:maxAddedBytes:)``
    /// goes on from, so a candidate's path is walked once. Reused (no allocation once grown).
    private var path: [Int] = []

    /// The bytes one more node costs (its stride), as the shrink's cache bound counts them.
    static let bytesPerNode = MemoryLayout<Node>.stride

    /// The bytes the nodes hold.
    var bytes: Int { nodes.count * Self.bytesPerNode }

    /// What is known about `values` (an exact repeat first).
    func knowledge(of values: [UInt64]) -> Knowledge {
        var walk = self  // shares the nodes; only its path buffer is written
        return walk.lookUp(values)
    }

    /// ``knowledge(of:)``, keeping the path it walked for ``record(_:readFront:maxAddedBytes:)``.
    mutating func lookUp(_ values: [UInt64]) -> Knowledge {
        path.removeAll(keepingCapacity: true)
        var node = 0
        path.append(node)
        var passedReadFront = false
        for value in values {
            passedReadFront = passedReadFront || nodes[node].isReadFront
            guard let child = child(of: node, value: value) else {
                return passedReadFront ? .readByReplay : .unknown
            }
            node = child
            path.append(node)
        }
        if nodes[node].isCandidate { return .judged }
        return passedReadFront || nodes[node].isReadFront ? .readByReplay : .unknown
    }

    /// `insert(values, as: .candidate, maxAddedBytes: maxAddedBytes)`, then, for a read front of
    /// `readFront` values, `insert(values[..<readFront], as: .readFront, …)` with what is left of
    /// the bound: the same nodes, marks and bytes, from the path of the ``lookUp(_:)`` of the
    /// same `values` just before (the trie unchanged since), so the path is not walked again.
    /// Returns the bytes added.
    ///
    /// - Precondition: the last ``lookUp(_:)`` was of `values`, and nothing was inserted since.
    mutating func record(_ values: [UInt64], readFront: Int?, maxAddedBytes: Int) -> Int {
        let matched = path.count - 1  // the depth the lookup's path reached
        precondition(matched <= values.count, "record(_:readFront:maxAddedBytes:) after a lookUp of other values")
        var added = 0
        let appended = append(values[matched...], below: path[matched], maxAddedBytes: maxAddedBytes)
        if let appended {
            added += appended.bytes
            nodes[appended.last].firstChildAndMarks |= Node.candidateMark
        }
        guard let length = readFront else { return added }
        // A read front under a shorter one (a read front on the path, the root included) adds nothing.
        for depth in 0...min(matched, length) where nodes[path[depth]].isReadFront { return added }
        if length <= matched {
            nodes[path[length]].firstChildAndMarks |= Node.readFrontMark
        } else if let appended {
            nodes[appended.first + (length - matched - 1)].firstChildAndMarks |= Node.readFrontMark
        } else if let front = append(values[matched..<length], below: path[matched],
                                     maxAddedBytes: maxAddedBytes - added) {
            added += front.bytes
            nodes[front.last].firstChildAndMarks |= Node.readFrontMark
        }
        return added
    }

    /// Appends `values` as a chain of new nodes under `parent`, unless that adds more than
    /// `maxAddedBytes` or too many nodes (then nothing): the first new node, the last one
    /// (`parent` itself when `values` is empty), and the bytes added.
    private mutating func append(_ values: ArraySlice<UInt64>, below parent: Int, maxAddedBytes: Int)
        -> (first: Int, last: Int, bytes: Int)? {
        let bytes = values.count * Self.bytesPerNode
        guard bytes <= maxAddedBytes, nodes.count + values.count <= Node.maxCount else { return nil }
        let first = nodes.count
        var node = parent
        for value in values {
            let links = nodes[node].firstChildAndMarks
            nodes.append(Node(value: value, nextSibling: links & Node.linkMask))
            nodes[node].firstChildAndMarks = links & ~Node.linkMask | UInt32(nodes.count)  // the new one's index + 1
            node = nodes.count - 1
        }
        return (first, node, bytes)
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
        guard let appended = append(values[index...], below: node, maxAddedBytes: maxAddedBytes) else { return 0 }
        nodes[appended.last].firstChildAndMarks |= mark == .candidate ? Node.candidateMark : Node.readFrontMark
        return appended.bytes
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
