import SimulationFormats

extension CampaignReport {
    /// `report` with the `exhaustive` section of a bounded exhaustive search appended (after
    /// `nondeterminism`): what it explored, the same for every `--jobs`.
    ///
    /// ```json
    /// "exhaustive": {"depth": 6, "sequences": 5120, "distinctStates": 311, "prunedBranches": 870,
    ///                "depthReached": 6, "complete": true}
    /// ```
    static func exhaustiveSection(_ report: JSONValue, _ stats: ExhaustiveStats) -> JSONValue {
        guard case .object(var object) = report else { return report }
        var section = JSONObject()
        section.append("depth", JSONValue(stats.depth))
        section.append("sequences", JSONValue(stats.sequences))
        section.append("distinctStates", JSONValue(stats.distinctStates))
        section.append("prunedBranches", JSONValue(stats.prunedBranches))
        section.append("depthReached", JSONValue(stats.depthReached))
        section.append("complete", .bool(stats.complete))
        object.append("exhaustive", .object(section))
        return .object(object)
    }
}
