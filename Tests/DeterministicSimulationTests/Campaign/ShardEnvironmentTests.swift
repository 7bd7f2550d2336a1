import DeterministicSimulation
import Testing

/// The engine's reading of a CI matrix's shard (`Shard.detect(in:)`, what `bgsim fuzz --shard
/// auto` uses); `Tests/bgsimTests/AutoShardTests.swift` pins the command's output and exit codes.
@Suite struct ShardEnvironmentTests {
    @Test("each CI system's index is read from its own base: GitLab from 1, the others from 0")
    func eachSystemsBase() throws {
        #expect(try Shard.detect(in: ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "4"]).shard == Shard(index: 2, count: 4))
        #expect(try Shard.detect(in: ["CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "3"]).shard == Shard(index: 1, count: 3))
        let kubernetes = try Shard.detect(in: ["JOB_COMPLETION_INDEX": "2", "BGSIM_SHARD_COUNT": "3"])
        #expect(kubernetes.shard == Shard(index: 3, count: 3))
        #expect(kubernetes.source == "a Kubernetes Indexed Job (JOB_COMPLETION_INDEX=2, BGSIM_SHARD_COUNT=3)")
    }

    @Test("BGSIM_SHARD wins over a CI system's variables; empty values count as not set")
    func precedence() throws {
        let both = try Shard.detect(in: ["BGSIM_SHARD": "2/2", "CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"])
        #expect(both.shard == Shard(index: 2, count: 2) && both.source == "BGSIM_SHARD=2/2")
        #expect(try Shard.detect(in: ["BGSIM_SHARD": "", "CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"]).shard
            == Shard(index: 1, count: 3))
    }

    @Test("an index out of range, a count missing, or no shard at all is an error naming the variables")
    func errors() {
        #expect(throws: ShardEnvironmentError.self) { try Shard.detect(in: ["CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "3"]) }
        do {
            _ = try Shard.detect(in: ["BUILDKITE_PARALLEL_JOB": "1"])
            Issue.record("a Buildkite index without its count was accepted")
        } catch {
            #expect(error.description.hasPrefix("BUILDKITE_PARALLEL_JOB is set (Buildkite) but BUILDKITE_PARALLEL_JOB_COUNT"))
        }
        do {
            _ = try Shard.detect(in: ["CI_NODE_TOTAL": "1"])  // GitLab sets it in every job: no shard
            Issue.record("a lone CI_NODE_TOTAL was read as a shard")
        } catch {
            #expect(error.description.hasPrefix("no shard in the environment; set BGSIM_SHARD=K/N"))
        }
    }
}
