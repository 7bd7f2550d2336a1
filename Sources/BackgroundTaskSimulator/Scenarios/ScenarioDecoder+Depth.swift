import DeterministicSimulation
import SimulationFormats

extension ScenarioDecoder {
    /// Reads `campaign.depth`: the depth of an exhaustive search, allowed only beside
    /// `"strategy": "exhaustive"` (a depth that nothing reads would be a silent mistake).
    ///
    /// ```json
    /// "campaign": {"runs": 1, "seed": "0x…", "horizonSeconds": 600, "strategy": "exhaustive", "depth": 5}
    /// ```
    static func decodeDepth(_ campaign: inout JSONObjectReader, strategy: ExplorationStrategy) throws(ConfigError) -> Int? {
        let range = ExhaustiveOptions.depthRange
        let depth = try campaign.optionalInt(
            "depth", in: range,
            fix: "Set 'depth' to a whole number from \(range.lowerBound) to \(range.upperBound) (the environment actions "
                + "plus scheduling choices of an exhaustive search), or leave it out (\(ExhaustiveOptions.defaultDepth)).")
        if depth != nil, strategy != .exhaustive {
            throw campaign.error(at: "depth", problem: "'depth' bounds an exhaustive search, but 'strategy' is \(strategy)",
                                 fix: "Set \"strategy\": \"exhaustive\" beside it, or remove 'depth'.")
        }
        return depth
    }
}
