import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// A ``BackgroundTaskToken`` begun on a background thread once the background time is spent:
/// iOS calls its expiration handler on main at once (A3.4), and that call may come before
/// `beginBackgroundTask` has returned on the other thread (A1.4: "you have to coordinate that
/// work with the expiry handler, which is always called on the main thread"). The token must
/// still end the task inside the handler (A3.2, A3.6), whichever thread gets there first.
@Suite struct TokenOffMainExpiryTests {
    /// One life: a task held in the background, an early expiry that spends the time (A3.3),
    /// and in the second before suspension two tokens begun on the global queue. Returns the
    /// tasks still open when their expiration handlers had returned, and whether both began.
    static func life(seed: UInt64) -> (stillOpen: [String], began: Bool) {
        let script = ScriptedDevice(environment: HostSeamsSimulationTests.preempting, choices: ChoiceSource(seed: Seed(seed)))
        let tokens = Box<[BackgroundTaskToken]>([])
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { script in
            _ = script.begin("upload", onExpiry: .end)
            script.home()
        }
        script.at(.seconds(2)) { $0.earlyExpiry() }
        script.at(.milliseconds(2_100)) { script in
            let app = script.app
            for name in ["sync", "upload"] {  // two begins at once: handlers may wait for either
                app.backgroundQueue.async {
                    let token = BackgroundTaskToken(name: name, host: app) {}
                    app.mainQueue.async { tokens.value.append(token) }
                }
            }
        }
        script.run(until: .seconds(10))
        let stillOpen = script.log.compactMap { entry -> String? in
            guard case .expirationHandlersReturned(let open, _) = entry.event, !open.isEmpty else { return nil }
            return "\(open)"
        }
        return (stillOpen, tokens.value.count == 2)
    }

    @Test("A1.4, A3.4: a token begun off main after the time is spent ends inside its handler, whatever the interleaving")
    func endsInsideTheHandler() {
        var began = 0
        for seed in UInt64(0)..<200 {
            let life = Self.life(seed: seed)
            if life.began { began += 1 }
            #expect(life.stillOpen.isEmpty, "seed: \(seed): tasks \(life.stillOpen) still open after their handlers returned")
        }
        #expect(began == 200, "the token was begun in \(began) of 200 lives")
    }
}
