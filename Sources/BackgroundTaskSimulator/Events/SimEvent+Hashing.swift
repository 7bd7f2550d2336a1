public import DeterministicSimulation

extension SimEvent {
    /// Feeds the event into a trace digest: its ``describe(to:)`` through a
    /// ``StableHashingVisitor`` (the kind's number, then every payload value in order).
    ///
    /// ```swift
    /// var hasher = StableHasher()
    /// SimEvent.taskEnded(id: 3, name: "upload").hash(into: &hasher)
    /// ```
    ///
    /// Contract: two events hash alike only if they are equal (up to the hash's collisions): the
    /// kind frames the case, strings and lists are length-prefixed. This is the hottest code of
    /// a campaign (every event of every run passes through it), so it allocates nothing: no
    /// ``name`` string, no ``fields`` array. Changing it changes every digest; the determinism
    /// tests pin it.
    public func hash(into hasher: inout StableHasher) {
        var visitor = StableHashingVisitor(hasher)
        describe(to: &visitor)
        hasher = visitor.hasher
    }

    /// ``hash(into:)`` on a fresh hasher, finalized: looked up in a table for events whose
    /// payload is only variants, enum names and Booleans (most of a run's events: actions,
    /// state changes, lifecycle callbacks), computed otherwise. The table is filled through the
    /// same ``StableHashingVisitor``, so the number, and every digest, is the same either way.
    public var contentHash: UInt64 {
        var finite = FiniteIndexVisitor()
        describe(to: &finite)
        if finite.isFinite {
            let table = Self.finiteHashes
            let base = table.bases[finite.kind.rawValue]
            if base >= 0 { return table.hashes[base &+ finite.index] }
        }
        var hasher = StableHasher()
        hash(into: &hasher)
        return hasher.finalize()
    }

    /// The content hashes of every event of every finite kind, computed once per process.
    static let finiteHashes = FiniteHashes()
}
