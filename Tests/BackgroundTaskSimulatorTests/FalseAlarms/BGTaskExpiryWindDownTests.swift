import BackgroundTaskKit
import BackgroundTaskNetwork
import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A BGProcessingTask whose expiration handler cancels its Swift task and completes the BGTask,
/// as Apple's sample and BackgroundTaskKit's own `registerAsync` do (C4.6). When the system
/// expired it (opening the app does), the request in flight was cancelled, but the cancellation
/// lands on the task's thread a little later; `background-work-held` judged it at the completion
/// itself ("the app would be suspended under it; hold a task until the work ends", which no app
/// can do at an expiry) in 4 of 1,000 runs of a probe. Work left in flight by a BGTask completed
/// after its expiry began is judged at the next suspension now, as for `endBackgroundTask` in an
/// expiration handler; a handler that leaves the work running is still found.
@Suite("A BGTask completed in its expiration handler")
struct BGTaskExpiryWindDownTests {
    static func campaign(cancelsWork: Bool) -> WorkloadCampaign {
        WorkloadCampaign(
            workload: WorkloadInfo(name: cancelsWork ? "catalog-sync/register-async" : "catalog-sync/keeps-fetching",
                                   summary: "syncs the catalog in a BGProcessingTask",
                                   permittedIdentifiers: [CatalogSync.identifier], backgroundModes: ["processing"],
                                   usesAsync: true) { CatalogSync(cancelsWork: cancelsWork) },
            runs: 1_000, seed: Seed(0xca7a_1095))
    }

    @Test("registerAsync's sync, cancelled and completed in the expiration handler, holds every invariant")
    func registerAsyncHolds() {
        let report = Self.campaign(cancelsWork: true).run()
        #expect(report.passed, "\(report)")
    }

    @Test("a handler that completes the task and leaves the requests running is still found")
    func leftRunningIsFound() throws {
        let report = Self.campaign(cancelsWork: false).run()
        #expect(report.failures.contains { $0.invariant == "background-work-held" }, "\(report)")
    }
}

/// Syncs the catalog, a hundred pages (more than a processing task's time), in a BGProcessingTask through BackgroundTaskKit's
/// `registerAsync` (the kit cancels the Swift task and completes the BGTask in the expiration
/// handler), resubmitting first. `cancelsWork` false: the bug, a hand-written handler that
/// completes the task but never cancels the requests.
private final class CatalogSync: Workload, @unchecked Sendable {
    // @unchecked: set up in didFinishLaunching, on the main queue.
    static let identifier = "com.example.catalog.sync"
    private let cancelsWork: Bool
    private var scheduler: BackgroundTaskScheduler?

    init(cancelsWork: Bool) { self.cancelsWork = cancelsWork }

    func didFinishLaunching(_ context: WorkloadContext) {
        let session = context.makeURLSession(work: .eachRequest)
        let pages: @Sendable () async throws -> Void = {
            for page in 0..<100 {
                _ = try await session.data(for: URLRequest(url: URL(string: "https://api.example.com/catalog?page=\(page)")!))
            }
        }
        if cancelsWork {
            let scheduler = BackgroundTaskScheduler(scheduler: context.taskScheduler, lifecycle: context.application)
            self.scheduler = scheduler
            let submit: @Sendable () -> Void = { try? scheduler.submit(Self.request) }
            try? scheduler.registerAsync(Self.identifier) { _ in
                submit()
                try await pages()
            }
            submit()
        } else {
            let scheduler = context.taskScheduler
            _ = scheduler.register(forTaskWithIdentifier: Self.identifier, using: nil) { task in
                try? scheduler.submit(Self.request)
                Task {
                    try? await pages()
                    task.setTaskCompleted(success: true)
                }
                task.expirationHandler = { task.setTaskCompleted(success: false) }  // the bug
            }
            try? scheduler.submit(Self.request)
        }
    }

    static var request: TaskRequest {
        TaskRequest(identifier: identifier, kind: .processing(requiresNetworkConnectivity: true, requiresExternalPower: false),
                    earliestBeginDate: Date().addingTimeInterval(60))
    }
}
