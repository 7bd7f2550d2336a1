import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// The workloads of expiring activities (A9) and continued processing (C6): each planted bug is
/// found where its twin does the right thing on the same run seeds, and the continued-processing
/// export registers a fresh identifier for each export of a process.
@Suite struct ActivityWorkloadTests {
    static let campaign = Seed(0xa9c6)

    /// One run of `variant` on the campaign's run seed `index`.
    static func run(_ workload: String, _ variant: String, index: Int, profile: OSProfile = .ios17) throws -> RunOutcome {
        let entry = try #require(WorkloadCatalog.variant(workload: workload, variant: variant))
        let spec = RunSpec(profile: profile, environment: EnvironmentConfig(), workload: entry.info,
                           invariants: Invariant.all, horizon: .seconds(1_800))
        return SimulationRunner.run(spec, choices: ChoiceSource(seed: campaign.derive(index: UInt64(index))), keepTrace: true)
    }

    static func probes(_ outcome: RunOutcome, _ name: String) -> Int {
        outcome.trace.count { if case .probe(name) = $0.event { true } else { false } }
    }

    @Test("A9.1: where the planted autosave is suspended mid-write, its twin's expired call cancels the write")
    func expiredCallStopsTheWrite() throws {
        var found = 0
        for index in 0..<60 {
            let planted = try Self.run("sketch-autosave", "ignores-expired", index: index)
            let correct = try Self.run("sketch-autosave", "correct", index: index)
            #expect(correct.violations.isEmpty, "run \(index): \(correct.violations)")
            guard let finding = planted.violations.first(where: { $0.invariant == "background-work-held" }) else { continue }
            found += 1
            #expect(finding.message.contains("work 'save-sketch'"), "run \(index): \(finding.message)")
            // Up to the expired call both runs are the same run: the twin gets there and cancels.
            #expect(Self.probes(correct, "sketch-write-cancelled") > 0, "run \(index): the twin never cancelled")
        }
        #expect(found >= 20, "the planted bug was found in \(found) of 60 runs")
    }

    /// A scripted iOS 26 device running `VideoExport`: launched in the foreground (the first tap of
    /// Export), home once that export is done, back (the second tap).
    static func twoExports(freshIdentifiers: Bool) -> ScriptedDevice {
        let hooks = ScriptedHooks()
        let script = ScriptedDevice(profile: .ios26, permitted: VideoExport.identifiers, hooks: hooks, usesAsync: true)
        let apps = Box<[VideoExport]>([])
        hooks.didFinishLaunching = { context in
            let app = VideoExport(freshIdentifiers: freshIdentifiers)
            apps.value.append(app)
            MainActor.assumeIsolated { app.didFinishLaunching(context) }  // the hook runs in the app delegate's call
        }
        script.at(.zero) { $0.launch() }
        script.at(.seconds(100)) { $0.home() }
        script.at(.seconds(110)) { $0.open() }
        script.run(until: .seconds(300))
        return script
    }

    @Test("C6.2: each export registers its own identifier, so a second export in one process runs")
    func secondExportRuns() {
        let script = Self.twoExports(freshIdentifiers: true)
        #expect(script.bgLaunches.map(\.value) == ["com.example.videoexport.export.1", "com.example.videoexport.export.2"])
        #expect(script.bgCompletions.map(\.value.success) == [true, true])
        #expect(script.terminations.isEmpty)
    }

    @Test("C1.3, C6.2: registering one fixed identifier per export crashes the second export, and the finding says how to fix it")
    func reusedIdentifierCrashes() throws {
        let script = Self.twoExports(freshIdentifiers: false)
        #expect(script.bgLaunches.map(\.value) == ["com.example.videoexport.export.current"])
        let crash = try #require(script.terminations.first)
        #expect(crash.time == .seconds(110))
        let checker = BGTaskRegisteredInTime()
        let finding = try #require(script.log.lazy.compactMap { entry in
            checker.observe(entry.event, at: entry.time, facts: RunFacts())
        }.first)
        #expect(finding.contains("has already been registered"))
        #expect(finding.contains("a fresh identifier under its wildcard each time (C1.3, C6.2)"))
    }
}
