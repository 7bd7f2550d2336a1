package import DeterministicSimulation
import Foundation

/// How a ``WorkloadCampaign`` isolated in test processes starts its children: the test binary
/// again, filtered to the calling test, told in its environment which campaign to serve and for
/// which phase. The child runs the test as usual up to that campaign's `run()`, which serves
/// the parent's runs (``ScenarioWorker``, answering on a descriptor of its own, so nothing the
/// test framework or the workload prints gets in) and ends the process. No tool of your own and
/// no scenario file: the workload made in the test's code is the one the children run.
///
/// ```swift
/// // BackgroundTaskSimulatorTesting makes one for the calling Swift Testing test:
/// campaign.isolation = try .testProcesses()
/// // TestRerun(executable: "/proc/self/exe",
/// //           arguments: ["--testing-library", "swift-testing", "--filter", "^Tests\\.Uploads/crash\\(\\)…$"],
/// //           key: "Tests.Uploads/crash()… Tests/Uploads.swift:12:9")
/// ```
///
/// Contract: the test must make the same campaign (workload name, seed, runs) at the same line
/// in every process (not a seed drawn at random), or the child never reaches it: it then ends
/// without answering and every run says so. In the child, the environment entry is read once and
/// removed (the child's own children do not inherit it); any other campaign of the test runs
/// nothing there.
package struct TestRerun: Sendable, Equatable {
    /// The test binary.
    package var executable: String
    /// Its arguments that run only the calling test.
    package var arguments: [String]
    /// Names the place that asked for the isolation: the test's id and the source line.
    package var key: String

    package init(executable: String, arguments: [String], key: String) {
        self.executable = executable
        self.arguments = arguments
        self.key = key
    }

    /// The environment variable that tells a test process which campaign and phase to serve:
    /// `"<strategy or -> <campaign key>"`.
    static let variable = "BGSIM_TEST_WORKER"

    /// Said when a child ended before serving: it ran the test without reaching the campaign.
    package static let startAdvice = "; the child test process ran the test without reaching this campaign: make the same "
        + "campaign (workload name, seed, runs) in every process, at the line that calls .testProcesses(), "
        + "not one with a seed drawn at random"

    /// Points `plan` at child processes that re-run the test: this test binary and arguments,
    /// each phase's environment entry, and the advice for a child that never serves.
    package func isolate(_ plan: inout ScenarioPlan) {
        plan.isolation = .childProcesses(executable: executable)
        plan.workerArguments = { [arguments] _ in arguments }
        plan.workerEnvironment = { [self] in [environment(for: $0)] }
        plan.wording.workerStartAdvice = Self.startAdvice
    }

    /// The worker environment entry for one phase's scenario.
    package func environment(for scenario: Scenario) -> String {
        "\(Self.variable)=\(scenario.strategyOverride?.rawValue ?? "-") \(campaignKey(scenario))"
    }

    /// Names one campaign: this place, with the campaign's workload, seed and runs (the cases
    /// of a parameterized test share the place), hashed to 16 hex digits.
    package func campaignKey(_ scenario: Scenario) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: the same in every process
        for byte in "\(key)\n\(scenario.name)\n\(scenario.campaign.seed)\n\(scenario.campaign.runs)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// What this process was started to serve; nil in a process no test-process campaign started.
    package static let asked: (key: String, strategy: ExplorationStrategy?)? = {
        guard let value = ProcessInfo.processInfo.environment[variable] else { return nil }
        unsetenv(variable)
        let fields = value.split(separator: " ", maxSplits: 1).map(String.init)
        guard fields.count == 2 else { return nil }
        return (fields[1], fields[0] == "-" ? nil : ExplorationStrategy(rawValue: fields[0]))
    }()

    /// Serves the parent's runs of `scenario` (its phase's `strategy` applied) until the parent
    /// is done, then ends the process with the worker's exit code.
    package static func serve(_ scenario: Scenario, strategy: ExplorationStrategy?) -> Never {
        var scenario = scenario
        scenario.strategyOverride = strategy
        ScenarioWorker.attachToParent()
        let wording = CrashWording(program: "WorkloadCampaign", timeoutSetting: "runTimeout")
        exit(ScenarioWorker.serve(scenario, wording: wording, crashExitCode: 70, internalErrorExitCode: 71))
    }
}
