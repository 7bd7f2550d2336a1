import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Work an expiration handler asked to stop is judged when the app is next suspended (A3.1,
/// B2.3), not at the next time nothing is held: a user who opens the app and leaves it again
/// while the cancelled work winds down brings a "nothing held" (didEnterBackground returned)
/// before any suspension. `background-work-held` reported that against an export whose cancelled
/// chunk was kept off the CPU for a preemption delay (2 runs of 3,000 on fresh seeds).
@Suite struct ExpiryWindDownSuspensionTests {
    /// A task and its work in the background from 10 s; an early expiry at 12 s whose handler ends
    /// the task and asks the work to stop, which it does `windDown` later (nil: never); the user
    /// opens the app at 12.02 s and leaves at 12.05 s. Returns `background-work-held`'s findings.
    static func findings(windDown: VirtualDuration?) -> [String] {
        let script = ScriptedDevice()
        script.at(.zero) { $0.launch() }
        script.at(.seconds(10)) { script in
            script.home()
            let app = script.app
            let work = script.context.startWork("export")
            let id = Box(BackgroundTaskIdentifier.invalid)
            id.value = app.beginBackgroundTask(withName: "export") {
                app.endBackgroundTask(id.value)  // A3.2: inside the handler
                if let windDown { app.backgroundQueue.asyncAfter(.microseconds(windDown.microseconds)) { work.cancel() } }
            }
        }
        script.at(.seconds(12)) { $0.earlyExpiry() }
        script.at(.milliseconds(12_020)) { $0.open() }
        script.at(.milliseconds(12_050)) { $0.home() }
        script.run(until: .seconds(60))
        let checker = BackgroundWorkHeld()
        let facts = RunFacts()
        return script.log.compactMap { checker.observe($0.event, at: $0.time, facts: facts) }
            + checker.finish(at: script.now, facts: facts)
    }

    @Test("stopped before the suspension: excused, though the user came back and left meanwhile")
    func stoppedBeforeTheSuspension() {
        #expect(Self.findings(windDown: .milliseconds(100)) == [])
    }

    @Test("never stopped: found at the suspension")
    func neverStopped() {
        let found = Self.findings(windDown: nil)
        #expect(found.count == 1)
        #expect(found.first?.contains("after the last background task ended in its expiration handler") == true, "\(found)")
    }
}
