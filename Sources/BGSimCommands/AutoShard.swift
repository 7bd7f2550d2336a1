import DeterministicSimulation

/// `--shard auto`: the shard this process runs, read from the CI system's environment.
///
/// ```swift
/// try AutoShard.detect(["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "4"])
/// // (Shard 2/4, "GitLab CI (CI_NODE_INDEX=2, CI_NODE_TOTAL=4)")
/// try AutoShard.detect(["JOB_COMPLETION_INDEX": "0", "BGSIM_SHARD_COUNT": "3"])
/// // (Shard 1/3, "a Kubernetes Indexed Job (JOB_COMPLETION_INDEX=0, BGSIM_SHARD_COUNT=3)")
/// ```
///
/// Contract: the first source that is set wins, in this order:
/// 1. `BGSIM_SHARD` = `K/N` (K from 1), for any CI system and for people;
/// 2. GitLab CI's `parallel:` jobs: `CI_NODE_INDEX` (from **1**) and `CI_NODE_TOTAL` (GitLab sets
///    `CI_NODE_TOTAL=1` in every job, so only `CI_NODE_INDEX` marks a parallel job);
/// 3. Buildkite's `parallelism:` steps: `BUILDKITE_PARALLEL_JOB` (from **0**) and
///    `BUILDKITE_PARALLEL_JOB_COUNT`;
/// 4. CircleCI's `parallelism:`: `CIRCLE_NODE_INDEX` (from **0**) and `CIRCLE_NODE_TOTAL`;
/// 5. a Kubernetes Indexed Job: `JOB_COMPLETION_INDEX` (from **0**; the Job controller sets it in
///    every pod) with the count in `BGSIM_SHARD_COUNT` (the Job's `completions`; Kubernetes
///    does not put it in the environment).
/// An index variable without its count, a value that is not a whole number, or an index out of
/// range is a usage error (exit 64) naming the variable; none set is a usage error that lists
/// them all. Empty values count as not set.
enum AutoShard {
    static func detect(_ environment: [String: String]) throws(CLIError) -> (shard: Shard, source: String) {
        func value(_ name: String) -> String? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            return text
        }
        if let text = value("BGSIM_SHARD") {
            do {
                return (try Shard(parsing: text), "BGSIM_SHARD=\(text)")
            } catch {
                throw .usage("--shard auto: BGSIM_SHARD: \(error) (set K/N with 1 <= K <= N, e.g. BGSIM_SHARD=2/4)")
            }
        }
        let systems: [(name: String, index: String, count: String, base: Int)] = [
            ("GitLab CI", "CI_NODE_INDEX", "CI_NODE_TOTAL", 1),
            ("Buildkite", "BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", 0),
            ("CircleCI", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", 0),
            ("a Kubernetes Indexed Job", "JOB_COMPLETION_INDEX", "BGSIM_SHARD_COUNT", 0),
        ]
        for system in systems {
            guard let indexText = value(system.index) else { continue }
            guard let countText = value(system.count) else {
                throw .usage("--shard auto: \(system.index) is set (\(system.name)) but \(system.count) is not; "
                    + (system.count == "BGSIM_SHARD_COUNT" ? "set BGSIM_SHARD_COUNT to the Job's completions"
                                                           : "set \(system.count), or BGSIM_SHARD=K/N"))
            }
            let index = try number(indexText, system.index)
            let count = try number(countText, system.count)
            let first = system.base
            guard count >= 1, index >= first, index < count + first else {
                throw .usage("--shard auto: \(system.index)=\(indexText) is out of range for \(system.count)=\(countText) "
                    + "(\(system.name) counts from \(first): \(first) to \(count - 1 + first))")
            }
            return (Shard(index: index - first + 1, count: count),
                    "\(system.name) (\(system.index)=\(indexText), \(system.count)=\(countText))")
        }
        throw .usage("--shard auto: no shard in the environment; set BGSIM_SHARD=K/N, or run as a GitLab parallel job "
            + "(CI_NODE_INDEX, CI_NODE_TOTAL), a Buildkite parallel step (BUILDKITE_PARALLEL_JOB, "
            + "BUILDKITE_PARALLEL_JOB_COUNT), a CircleCI parallel job (CIRCLE_NODE_INDEX, CIRCLE_NODE_TOTAL) or a "
            + "Kubernetes Indexed Job (JOB_COMPLETION_INDEX with BGSIM_SHARD_COUNT)")
    }

    private static func number(_ text: String, _ name: String) throws(CLIError) -> Int {
        guard text.utf8.count <= 9, text.utf8.allSatisfy({ (48...57).contains($0) }), let number = Int(text) else {
            throw .usage("--shard auto: \(name)=\(text) is not a whole number")
        }
        return number
    }
}

extension CampaignFlags {
    /// Replaces `--shard auto` with the shard the environment names (see ``AutoShard``); the
    /// source, for the summary, or nil when the shard was given as `K/N` or not at all.
    mutating func resolveAutoShard(_ environment: [String: String]) throws(CLIError) -> String? {
        guard shardIsAuto else { return nil }
        let detected = try AutoShard.detect(environment)
        shard = detected.shard
        shardIsAuto = false
        return detected.source
    }
}
