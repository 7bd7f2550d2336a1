import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// The hosts' callbacks typed as the iOS 18 SDK declares them (`ExpirationHandler`,
/// `LifecycleObserver`: `@MainActor`), called by the simulated app on its simulated main thread.
@Suite("Main-actor callouts of the simulated app")
struct MainActorCalloutTests {
    /// A draft saver as an app writes it against UIKit: `@MainActor` state touched directly in
    /// its lifecycle observer and its expiration handler, no `MainActor.assumeIsolated`.
    @MainActor
    final class DraftSaver {
        private let host: any BackgroundTaskHost
        private var taskID = BackgroundTaskIdentifier.invalid
        private var observation: LifecycleObservation?
        private let log: Box<[String]>  // read by the test after the run

        init(app: SimulatedApplication, log: Box<[String]>) {
            host = app
            self.log = log
            observation = app.addLifecycleObserver { [weak self] event in
                MainActor.preconditionIsolated("a lifecycle observer runs on the main actor")
                if event == .didEnterBackground { self?.didEnterBackground() }
            }
        }

        private func didEnterBackground() {
            log.value.append("background")
            taskID = host.beginBackgroundTask(withName: "save-draft") { [weak self] in
                MainActor.preconditionIsolated("an expiration handler runs on the main actor")
                self?.expire()
            }
        }

        private func expire() {
            log.value.append("expired \(taskID.rawValue)")
            host.endBackgroundTask(taskID)  // A3.2: ended inside the handler
            taskID = .invalid
        }
    }

    @Test("an @MainActor model touches its state in a lifecycle observer and an expiration handler of a run")
    func mainActorModel() {
        let log = Box<[String]>([])
        let saver = Box<DraftSaver?>(nil)
        let hooks = ScriptedHooks()
        hooks.didFinishLaunching = { context in  // a job of the simulated main queue
            let app = context.application
            saver.value = MainActor.assumeIsolated { DraftSaver(app: app, log: log) }
        }
        let script = ScriptedDevice.backgrounded(homeAt: .seconds(10), hooks: hooks)
        script.run(until: .seconds(120))
        #expect(saver.value != nil)
        #expect(log.value == ["background", "expired 1"])
        #expect(script.log.contains { $0.event == .expirationHandlerCalled(id: 1) })
        #expect(script.log.contains { $0.event == .taskEnded(id: 1, name: "save-draft") })
    }
}
