import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Foundation
import Testing

/// A BGTask the system expires before its launch handler's first line (C4.1: expiry after 2-5 s
/// has been seen). The expiration callout runs on the registration queue (C4.4), behind the
/// launch handler queued before it, and takes the expiration handler when it runs (C4.5), so the
/// launch handler still sets its expiration handler in time. The simulator took it when the
/// system decided, before the launch handler had run: the task was completed unsuccessfully
/// (C4.5) under the work the handler then started (`background-work-held`), and a handler that
/// completes at once was told it completed twice (`bgtask-completed-once`). A handler that ran
/// and set no expiration handler is still found.
@Suite("BGTask expired before its launch handler ran")
struct ExpiredBeforeHandlerTests {
    static let identifier = "com.example.expiry.refresh"

    /// What the test workload's launch handler does.
    enum Handler: String, Sendable {
        /// Sets its expiration handler first (cancel, complete), then works for 10 s.
        case correct
        /// Completes at once, with no expiration handler (nothing to cancel).
        case completesAtOnce
        /// Works for 10 s with no expiration handler: an expiry leaves the work unheld (C4.5).
        case noExpirationHandler
    }

    /// Launch, home, the refresh launched; `action` injected at `moment` after the launch.
    static func life(_ handler: Handler, _ moment: ScriptedLife.Moment?) -> ScriptedLife.Outcome {
        let info = WorkloadInfo(name: "expiry-\(handler.rawValue)", summary: "test", permittedIdentifiers: [identifier],
                                backgroundModes: ["fetch"]) { ExpiryTestApp(handler: handler) }
        var life = ScriptedLife(workload: info, profile: .ios17, steps: [.launch, .home, .launchBackgroundTask])
        life.invariants = ["background-work-held", "bgtask-completed-once"].compactMap(Invariant.named)
        guard let moment else { return life.run() }
        return life.run(injecting: .expireBackgroundTask, at: ScriptedLife.Point(step: 2, moment: moment))
    }

    @Test("expired before its first line, a correct handler still sets its expiration handler in time",
          arguments: [Handler.correct, .completesAtOnce])
    func expiryBeforeHandlerIsExcused(handler: Handler) {
        let outcome = Self.life(handler, .beforeAppReacts)
        #expect(outcome.injected)
        #expect(outcome.violations.isEmpty, "\(outcome.violations)\n\(outcome.trace.joined(separator: "\n"))")
    }

    @Test("a handler that ran and set no expiration handler leaves its work unheld at expiry: still found")
    func noExpirationHandlerIsFound() {
        #expect(Self.life(.noExpirationHandler, nil).violations.isEmpty)
        let outcome = Self.life(.noExpirationHandler, .afterAppReacts)
        #expect(outcome.injected)
        #expect(outcome.violations.map(\.invariant) == ["background-work-held"], "\(outcome.violations)")
    }

    @Test("a second completion by the app is still found on the same life")
    func doubleCompletionIsFound() throws {
        let planted = try #require(WorkloadCatalog.variant(workload: "bg-scheduler-app", variant: "p7-double-completion"))
        var life = ScriptedLife(workload: planted.info, profile: .ios17)
        life.invariants = [try #require(Invariant.named("bgtask-completed-once"))]
        #expect(life.run().violations.map(\.invariant).contains("bgtask-completed-once"))
    }
}

/// A one-identifier refresh app whose launch handler is one of ``ExpiredBeforeHandlerTests/Handler``.
private final class ExpiryTestApp: Workload, @unchecked Sendable {
    // @unchecked: one simulated thread runs at a time.
    let handler: ExpiredBeforeHandlerTests.Handler
    init(handler: ExpiredBeforeHandlerTests.Handler) { self.handler = handler }

    func didFinishLaunching(_ context: WorkloadContext) {
        let scheduler = context.taskScheduler
        let handler = self.handler
        _ = scheduler.register(forTaskWithIdentifier: ExpiredBeforeHandlerTests.identifier, using: nil) { task in
            Self.submit(scheduler)
            if handler == .completesAtOnce { return task.setTaskCompleted(success: true) }
            let work = context.startWork("refresh")
            if handler == .correct {
                task.expirationHandler = {
                    work.cancel()
                    task.setTaskCompleted(success: false)
                }
            }
            context.application.backgroundQueue.asyncAfter(.seconds(10)) {
                guard !work.isDone else { return }
                work.finish()
                task.setTaskCompleted(success: true)
            }
        }
        Self.submit(scheduler)
    }

    static func submit(_ scheduler: SimulatedTaskScheduler) {
        try? scheduler.submit(TaskRequest(identifier: ExpiredBeforeHandlerTests.identifier, kind: .appRefresh,
                                          earliestBeginDate: scheduler.now.addingTimeInterval(60)))
    }
}
