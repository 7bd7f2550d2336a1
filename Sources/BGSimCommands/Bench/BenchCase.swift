import BackgroundTaskSimulator
import DeterministicSimulation

/// One fixed workload of the standard benchmark: a built-in workload variant on a profile with a
/// horizon, always run from the same campaign seed.
///
/// ```swift
/// let spec = BenchCase.token.spec   // the correct token workload, iOS 17, 30 virtual minutes
/// ```
///
/// Contract: the cases never read `Scenarios/` (a user's edits must not change the benchmark);
/// changing a case changes the benchmark's meaning, so its name changes with it.
struct BenchCase: Sendable {
    var name: String
    var workload: String
    var variant: String
    var horizonSeconds: Int64
    var seed = Seed(0xbe7c_0000_0000_0001)

    var spec: RunSpec {
        guard let entry = WorkloadCatalog.variant(workload: workload, variant: variant) else {
            preconditionFailure("bench case \(name) names an unknown workload \(workload)/\(variant)")
        }
        return RunSpec(profile: .ios17, environment: EnvironmentConfig(), workload: entry.info,
                       invariants: Invariant.all, horizon: .seconds(horizonSeconds))
    }

    static let token = BenchCase(name: "token-ios17", workload: "token", variant: "correct", horizonSeconds: 1_800)
    static let backgroundQueue = BenchCase(name: "background-queue-ios17", workload: "background-queue",
                                           variant: "correct", horizonSeconds: 1_800)
    static let scheduler = BenchCase(name: "bg-scheduler-app-ios17", workload: "bg-scheduler-app",
                                     variant: "correct", horizonSeconds: 1_800)
    static let longToken = BenchCase(name: "token-ios17-long", workload: "token", variant: "correct",
                                     horizonSeconds: 86_400)
    static let p1 = BenchCase(name: "download-manager-p1-ios17", workload: "download-manager",
                              variant: "p1-overwritten-task-id", horizonSeconds: 1_800)

    /// The throughput cases, in table order.
    static let throughput = [token, backgroundQueue, scheduler, longToken]

    /// The token workload at a horizon, for the run-length curve.
    static func token(horizonSeconds: Int64) -> BenchCase {
        BenchCase(name: "token-ios17-\(horizonSeconds)s", workload: "token", variant: "correct",
                  horizonSeconds: horizonSeconds)
    }
}
