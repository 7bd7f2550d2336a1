import SimulationFormats

extension CampaignReport {
    /// `report` with the `exhaustive` section of a bounded exhaustive search appended (after
    /// `nondeterminism`): what it explored, the same for every `--jobs`.
    ///
    /// ```json
    /// "exhaustive": {"depth": 6, "sequences": 5120, "distinctStates": 311, "prunedBranches": 870,
    ///                "depthReached": 6, "complete": true}
    /// ```
    ///
    /// Contract: a search is not sharded, it runs whole in shard 1. The report of shard `K > 1`
    /// (`shard.index > 1`) is that of a shard that did not search: zero runs, a section of
    /// zeros with `"complete": true`, and `"searchedInShard": 1` to say where the search ran.
    static func exhaustiveSection(_ report: JSONValue, _ stats: ExhaustiveStats, shard: Shard = .whole) -> JSONValue {
        guard case .object(var object) = report else { return report }
        var section = JSONObject()
        section.append("depth", JSONValue(stats.depth))
        section.append("sequences", JSONValue(stats.sequences))
        section.append("distinctStates", JSONValue(stats.distinctStates))
        section.append("prunedBranches", JSONValue(stats.prunedBranches))
        section.append("depthReached", JSONValue(stats.depthReached))
        section.append("complete", .bool(stats.complete))
        if shard.index > 1 { section.append("searchedInShard", 1) }
        object.append("exhaustive", .object(section))
        return .object(object)
    }

    /// The merged reports' search: shard 1's `exhaustive` section, checked, when the reports
    /// are of an exhaustive search; `nil` when they are of seeded runs.
    ///
    /// ```swift
    /// let search = try mergedSearch(shards)   // shard 1's stats; shards 2...N said "searchedInShard": 1
    /// ```
    ///
    /// - Throws: ``CampaignReportError`` naming the report and field when some reports have the
    ///   section and others not, the depths differ, shard 1's counts are negative, its
    ///   `sequences` is not its `summary.runs` or `complete` contradicts `summary.interrupted`, or
    ///   another shard's section does not say `"searchedInShard": 1` with no sequences.
    static func mergedSearch(_ parts: [(shard: Shard, reader: ReportReader)]) throws(CampaignReportError) -> ExhaustiveStats? {
        let first = parts[0].reader
        guard first.value["exhaustive"] != nil else {
            if let other = parts.first(where: { $0.reader.value["exhaustive"] != nil }) {
                throw other.reader.inconsistent("exhaustive", problem: "is an exhaustive search's, but \(first.name) "
                    + "is of seeded runs")
            }
            return nil
        }
        let depth = try first.int("exhaustive", "depth", in: 1...Int.max)
        let runs = try first.int("summary", "runs", in: 0...Int.max)
        let stats = ExhaustiveStats(depth: depth, sequences: try first.int("exhaustive", "sequences", in: runs...runs),
                                    distinctStates: try first.int("exhaustive", "distinctStates", in: 0...Int.max),
                                    prunedBranches: try first.int("exhaustive", "prunedBranches", in: 0...Int.max),
                                    depthReached: try first.int("exhaustive", "depthReached", in: 0...depth),
                                    complete: try first.bool("exhaustive", "complete"))
        guard first.value["exhaustive"]?["searchedInShard"] == nil else {
            throw first.inconsistent("exhaustive", "searchedInShard", problem: "is set in shard 1, where the search runs")
        }
        guard stats.complete != (try first.bool("summary", "interrupted")) else {
            throw first.inconsistent("exhaustive", "complete", problem: "is \(stats.complete), which contradicts "
                + "summary.interrupted (a search is complete exactly when it was not interrupted)")
        }
        for (_, reader) in parts.dropFirst() {
            guard reader.value["exhaustive"]?["searchedInShard"] == 1 else {
                throw reader.inconsistent("exhaustive", "searchedInShard", problem: "is not 1: an exhaustive search runs "
                    + "whole in shard 1, and no other shard searches")
            }
            _ = try reader.int("exhaustive", "depth", in: depth...depth)
            _ = try reader.int("exhaustive", "sequences", in: 0...0)
        }
        return stats
    }
}

extension CampaignResult {
    /// What shard `K > 1` of an exhaustive search finds: nothing of its own, since the search
    /// runs whole in shard 1. Its report (`"searchedInShard": 1`) merges with shard 1's into the
    /// report of the unsharded search.
    ///
    /// ```swift
    /// let result = CampaignResult.searchedInShardOne(options: options, depth: 3)   // options.shard is 2/3
    /// ```
    ///
    /// - Parameters:
    ///   - options: the campaign's options, with its shard.
    ///   - depth: the search's depth bound (as shard 1's).
    package static func searchedInShardOne(options: CampaignOptions, depth: Int) -> CampaignResult {
        var result = CampaignResult.nothingRun(options: options)
        result.exhaustive = ExhaustiveStats(depth: depth)
        return result
    }
}
