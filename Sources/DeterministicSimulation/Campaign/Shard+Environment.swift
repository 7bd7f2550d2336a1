/// The shard a process runs, read from the CI system's environment (what `--shard auto` means
/// to bgsim): for a CI matrix whose jobs run one campaign each.
///
/// ```swift
/// try Shard.detect(in: ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "4"])
/// // (Shard 2/4, "GitLab CI (CI_NODE_INDEX=2, CI_NODE_TOTAL=4)")
/// try Shard.detect(in: ["JOB_COMPLETION_INDEX": "0", "BGSIM_SHARD_COUNT": "3"])
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
/// range is an error naming the variable; none set is an error that lists them all. Empty
/// values count as not set. The source comes back as words for a summary line.
extension Shard {
    package static func detect(in environment: [String: String]) throws(ShardEnvironmentError) -> (shard: Shard,
                                                                                                source: String) {
        func value(_ name: String) -> String? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            return text
        }
        if let text = value("BGSIM_SHARD") {
            do {
                return (try Shard(parsing: text), "BGSIM_SHARD=\(text)")
            } catch {
                throw .init("BGSIM_SHARD: \(error) (set K/N with 1 <= K <= N, e.g. BGSIM_SHARD=2/4)")
            }
        }
        for system in ShardEnvironmentError.systems {
            guard let indexText = value(system.index) else { continue }
            guard let countText = value(system.count) else {
                throw .init("\(system.index) is set (\(system.name)) but \(system.count) is not; "
                    + (system.count == "BGSIM_SHARD_COUNT" ? "set BGSIM_SHARD_COUNT to the Job's completions"
                                                           : "set \(system.count), or BGSIM_SHARD=K/N"))
            }
            let index = try number(indexText, system.index)
            let count = try number(countText, system.count)
            let first = system.base
            guard count >= 1, index >= first, index < count + first else {
                throw .init("\(system.index)=\(indexText) is out of range for \(system.count)=\(countText) "
                    + "(\(system.name) counts from \(first): \(first) to \(count - 1 + first))")
            }
            return (Shard(index: index - first + 1, count: count),
                    "\(system.name) (\(system.index)=\(indexText), \(system.count)=\(countText))")
        }
        throw .init("no shard in the environment; set BGSIM_SHARD=K/N, or run as a GitLab parallel job "
            + "(CI_NODE_INDEX, CI_NODE_TOTAL), a Buildkite parallel step (BUILDKITE_PARALLEL_JOB, "
            + "BUILDKITE_PARALLEL_JOB_COUNT), a CircleCI parallel job (CIRCLE_NODE_INDEX, CIRCLE_NODE_TOTAL) or a "
            + "Kubernetes Indexed Job (JOB_COMPLETION_INDEX with BGSIM_SHARD_COUNT)")
    }

    private static func number(_ text: String, _ name: String) throws(ShardEnvironmentError) -> Int {
        guard text.utf8.count <= 9, text.utf8.allSatisfy({ (48...57).contains($0) }), let number = Int(text) else {
            throw .init("\(name)=\(text) is not a whole number")
        }
        return number
    }
}

/// Why the environment names no usable shard (``Shard/detect(in:)``): one sentence naming the
/// variable and the fix.
package struct ShardEnvironmentError: Error, Equatable, Sendable, CustomStringConvertible {
    package var description: String

    init(_ description: String) { self.description = description }

    /// The CI systems whose parallel jobs name their shard, with the index's first value.
    static let systems: [(name: String, index: String, count: String, base: Int)] = [
        ("GitLab CI", "CI_NODE_INDEX", "CI_NODE_TOTAL", 1),
        ("Buildkite", "BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", 0),
        ("CircleCI", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", 0),
        ("a Kubernetes Indexed Job", "JOB_COMPLETION_INDEX", "BGSIM_SHARD_COUNT", 0),
    ]
}
