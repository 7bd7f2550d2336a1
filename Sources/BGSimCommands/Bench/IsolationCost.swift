import BackgroundTaskSimulator
import DeterministicSimulation

/// What crash handling costs a campaign of the token scenario: runs per second in this process
/// without crash slots (the campaign as it ran before crash handling), in this process with a
/// crash slot written per run (bgsim's default, so a crash names its run), and isolated (one
/// child process per worker, a verdict line per run over a pipe; children started included).
///
/// ```swift
/// let rows = IsolationCost.measureAll(executable: "/proc/self/exe", runs: 2_000, jobs: [1, 2], repetitions: 3)
/// ```
///
/// Contract: a measurement; every mode gives the same campaign digest (checked: a row whose
/// digest differs is marked). Uses `Scenarios/token-correct-ios17.json`, the one scenario file
/// the bench reads besides the shrink table's: an isolated child must load its scenario from a
/// file. Timing uses the wall clock here, outside simulation code.
struct IsolationCost: Sendable {
    /// How the runs ran.
    enum Mode: String, CaseIterable, Sendable {
        case inProcess = "in process, no crash slot"
        case crashSlot = "in process, crash slot per run"
        case isolated = "isolated (child per worker)"
    }

    var mode: Mode
    var jobs: Int
    var runs: Int
    var rates: Rates
    /// Whether the campaign digest equals the in-process one.
    var sameDigest: Bool

    static let scenarioFile = "Scenarios/token-correct-ios17.json"

    static func measureAll(executable: String?, runs: Int, jobs: [Int], repetitions: Int) -> [IsolationCost] {
        guard let scenario = try? ScenarioLoader.load(file: scenarioFile) else { return [] }
        let local = SimulationTarget(spec: scenario.runSpec)
        var rows: [IsolationCost] = []
        for jobCount in jobs {
            let options = CampaignOptions(seed: scenario.campaign.seed, runs: runs, jobs: jobCount,
                                          determinismSamples: 0, maxShrunkFailures: 0)
            let modes = Mode.allCases.filter { $0 != .isolated || executable != nil }
            var rates = [Rates](repeating: Rates(), count: modes.count)
            var digests = [TraceDigest?](repeating: nil, count: modes.count)
            // Round robin, so that a shared machine's load falls on every mode alike.
            for _ in 0..<repetitions {
                for (index, mode) in modes.enumerated() {
                    let result: CampaignResult
                    switch mode {
                    case .inProcess:
                        result = Campaign.run(local, options: options)
                    case .crashSlot:
                        result = Campaign.run(local, options: options, crashBanner: Isolation.banner(for: scenario, invocation: "bgsim"))
                    case .isolated:
                        // The campaign ends its children when it is over (timed, as in fuzz).
                        var plan = CampaignPlan(options: options)
                        plan.isolation = .childProcesses(executable: executable ?? "")
                        plan.runTimeoutSeconds = ScenarioPlan.defaultRunTimeoutSeconds
                        result = Campaign.run(CampaignPhases(CampaignPhase(local, workerArguments: ScenarioWorker.arguments(for: scenario))),
                                              plan: plan)
                    }
                    rates[index].add(result)
                    digests[index] = result.totals.digest.digest
                }
            }
            for (index, mode) in modes.enumerated() {
                rows.append(IsolationCost(mode: mode, jobs: jobCount, runs: runs, rates: rates[index],
                                          sameDigest: digests[index] == digests[0]))
            }
        }
        return rows
    }
}
