import DeterministicSimulation

extension EnvironmentDriver {
    /// Exhaustive search: records the state before a go-on draw as a node of the search tree
    /// (nothing when a simulated thread is suspended mid-job: such a state cannot be hashed).
    ///
    /// ```swift
    /// if let log = choices.exploration { noteNode(log) }
    /// ```
    func noteNode(_ log: ExplorationLog) {
        guard let hash = device.explorationStateHash() else { return }
        log.node(position: choices.drawCount, stateHash: hash)
    }

    /// Exhaustive search: records the action draw at `position` as a branch over every action
    /// with a weight (the first is the canonical one; the depth was paid by the go-on draw).
    func noteActionBranch(_ log: ExplorationLog, position: Int) {
        var alternatives: [UInt64] = []
        for index in 0..<candidateCount where candidateWeights[index] > 0 { alternatives.append(UInt64(index)) }
        log.branch(position: position, alternatives: alternatives, extraCost: 0)
    }
}
