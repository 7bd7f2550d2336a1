import Foundation
import Testing

/// `@MainActor` expiration handlers and lifecycle observers with `BGSIM_PROCESS_EXECUTORS=off`
/// (the fallback): the simulated app still calls them on its simulated main thread (the engine's
/// own check, then the call), so callback workloads give the results, event for event, that they
/// give with the process's executors. (Plain async workloads name their escapes in the fallback,
/// `AsyncDigestTests`; their tasks then also run on real threads, which the fallback cannot stop.)
@Suite struct MainActorFallbackTests {
    static func fuzz(_ scenario: String, off: Bool) throws -> (code: Int32, stdout: String) {
        try ReplayInNewProcessTests.runProcess(
            ["fuzz", PackageRoot.scenario(scenario), "--runs", "30", "--jobs", "1", "--no-failure-db"],
            environment: off ? ["BGSIM_PROCESS_EXECUTORS": "off"] : [:])
    }

    @Test("a callback workload's @MainActor observers and expiration handlers give the same digest with the executors off",
          arguments: ["background-queue-correct-ios17.json", "analytics-flush-p2-handler-does-not-end-ios17.json"])
    func callbackWorkloadUnchanged(file: String) throws {
        let on = try Self.fuzz(file, off: false)
        let off = try Self.fuzz(file, off: true)
        let digest = try #require(AsyncDigestTests.digest(on.stdout), "\(on.stdout.prefix(600))")
        #expect(on.code == 0, "\(on.stdout.prefix(600))")
        #expect(off.code == 0, "\(off.stdout.prefix(600))")
        #expect(AsyncDigestTests.digest(off.stdout) == digest, "\(off.stdout.prefix(600))")
    }
}
