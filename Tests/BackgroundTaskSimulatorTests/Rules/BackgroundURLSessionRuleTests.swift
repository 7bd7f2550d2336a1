import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Background `URLSession` (D1, issue 19): transfers run in the system while the app is
/// suspended or terminated; when a session's transfers are done the app is woken or relaunched,
/// `handleEventsForBackgroundURLSession` hands it a completion handler, the events reach only a
/// session with the same identifier, then `urlSessionDidFinishEvents`; a force-quit cancels
/// pending transfers, a jetsam does not.
@Suite struct BackgroundURLSessionRuleTests {
    /// What the scripted app does with a wake.
    enum OnEvents {
        /// Keeps the handler and calls it on main from `urlSessionDidFinishEvents` (correct).
        case completeAfterEvents
        /// Keeps the handler and never calls it.
        case neverComplete
    }

    /// A scripted app that makes the session `identifier(process)` at launch (none when nil),
    /// with transfers of exactly `transferSeconds`; `results` collects the delegate's completions.
    static func device(
        identifier: @escaping @Sendable (Int) -> String? = { _ in "uploads" }, onEvents: OnEvents = .completeAfterEvents,
        transferSeconds: Int64 = 10, results: Box<[String]> = Box([]), profile: OSProfile = .ios17
    ) -> ScriptedDevice {
        let hooks = ScriptedHooks()
        hooks.didFinishLaunching = { context in
            let app = context.application
            let handlers = Box<[@Sendable () -> Void]>([])
            context.onBackgroundURLSessionEvents { _, completionHandler in handlers.value.append(completionHandler) }
            guard let name = identifier(app.process) else { return }
            _ = context.backgroundURLSession(identifier: name, onTaskCompleted: { transfer, result in
                results.value.append("\(transfer.name) \(result.isSuccess ? "ok" : "\(result)")")
            }, onFinishEvents: { _ in
                guard onEvents == .completeAfterEvents else { return }
                app.mainQueue.async { for handler in handlers.value { handler() }; handlers.value = [] }
            })
        }
        var environment = EnvironmentConfig.scripted
        environment.work = .init(minimum: .seconds(transferSeconds), maximum: .seconds(transferSeconds))
        return ScriptedDevice(profile: profile, environment: environment, hooks: hooks)
    }

    /// Starts an upload named `name` in the current process's session `identifier`.
    static func upload(_ name: String, in identifier: String = "uploads", _ script: ScriptedDevice) {
        let session = script.context.backgroundURLSession(identifier: identifier, onTaskCompleted: { _, _ in },
                                                          onFinishEvents: { _ in })
        session.upload(name)
    }

    /// Launches the app at 0 s, starts the upload "IMG_1" in session `identifier` at 1 s (it takes
    /// the device's transfer time) and sends the app home at 2 s (suspended at 3 s).
    static func launchUploadAndGoHome(_ script: ScriptedDevice, in identifier: String = "uploads") {
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { Self.upload("IMG_1", in: identifier, $0) }
        script.at(.seconds(2)) { $0.home() }
    }

    /// The session events, as short lines.
    static func sessionEvents(_ script: ScriptedDevice) -> [String] {
        script.log.compactMap { entry in
            switch entry.event {
            case .backgroundTransfer(_, let task, let phase): "transfer \(task) \(phase)"
            case .backgroundSessionEvents(let session, let wake, let phase): "\(phase) \(session) \(wake)"
            case .backgroundSessionCompleted(_, let wake, let onMain, let afterEvents, let repeated):
                "complete \(wake)\(onMain ? " main" : "")\(afterEvents ? " after" : "")\(repeated ? " repeated" : "")"
            case .backgroundSessionExpired(_, let wake, let delivered, let terminates):
                "expire \(wake)\(delivered ? " delivered" : "")\(terminates ? " terminates" : "")"
            default: nil
            }
        }
    }

    @Test("D1: a transfer runs while the app is suspended; the suspended app is woken, handleEvents, events, didFinishEvents, completion, suspension")
    func wakesSuspendedApp() {
        let results = Box<[String]>([])
        let script = Self.device(results: results)
        Self.launchUploadAndGoHome(script)  // the upload is done at 11 s; the app suspended at 3 s
        script.run(until: .seconds(60))
        #expect(Self.sessionEvents(script) == [
            "create uploads 0", "transfer 1 start", "transfer 1 finish", "wake uploads 1", "handleEvents uploads 1",
            "transfer 1 deliver", "didFinishEvents uploads 1", "complete 1 main after",
        ])
        #expect(results.value == ["IMG_1 ok"])
        #expect(script.stateTimes.map(\.time).suffix(3) == [.seconds(3), .seconds(11), .seconds(12)])
        #expect(script.states.suffix(3) == [.suspended, .background, .suspended])
        #expect(script.terminations.isEmpty)
    }

    @Test("D1: while the app runs, a finished transfer is delivered at once, with no handleEvents")
    func deliveredWhileRunning() {
        let results = Box<[String]>([])
        let script = Self.device(results: results)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { Self.upload("IMG_1", $0) }
        script.run(until: .seconds(30))
        #expect(Self.sessionEvents(script) == ["create uploads 0", "transfer 1 start", "transfer 1 finish", "transfer 1 deliver"])
        #expect(results.value == ["IMG_1 ok"])
    }

    @Test("D1: after a jetsam the app is relaunched in the background; the events reach a session recreated with the same identifier")
    func relaunchDeliversToRecreatedSession() {
        let results = Box<[String]>([])
        let script = Self.device(results: results)
        Self.launchUploadAndGoHome(script)
        script.at(.seconds(5)) { $0.memoryPressureKill() }  // suspended: killed at once, transfers go on
        script.run(until: .seconds(60))
        #expect(script.device.processCount == 2)
        #expect(script.log.contains { $0.event == .processLaunched(process: 2, inBackground: true) })
        // The relaunched process makes its session in didFinishLaunching, before handleEvents is called.
        #expect(Self.sessionEvents(script).suffix(6) == [
            "wake uploads 1", "create uploads 0", "handleEvents uploads 1", "transfer 1 deliver", "didFinishEvents uploads 1",
            "complete 1 main after",
        ])
        #expect(results.value == ["IMG_1 ok"])
    }

    @Test("D1: a relaunch whose session is made with another identifier never gets its events; the wake expires and the background app is killed")
    func otherIdentifierNeverGetsEvents() {
        let results = Box<[String]>([])
        let script = Self.device(identifier: { "uploads-\($0)" }, results: results)
        Self.launchUploadAndGoHome(script, in: "uploads-1")
        script.at(.seconds(5)) { $0.memoryPressureKill() }
        script.run(until: .seconds(60))
        #expect(results.value.isEmpty)
        #expect(Self.sessionEvents(script).suffix(2) == ["handleEvents uploads-1 1", "expire 1 terminates"])
        #expect(script.terminations.map(\.time).last == .seconds(41))  // the wake at 11 s + 30 s (D1)
    }

    @Test("D1: a completion handler not called within backgroundSessionEventsRuntime expires the wake; off, the app is only suspended")
    func lateCompletionExpires() {
        var profile = OSProfile.ios17
        profile.backgroundSessionEventsRuntime = .seconds(20)
        let script = Self.device(onEvents: .neverComplete, profile: profile)
        Self.launchUploadAndGoHome(script)
        script.run(until: .seconds(60))
        #expect(Self.sessionEvents(script).last == "expire 1 delivered terminates")
        #expect(script.terminations.map(\.time) == [.seconds(31)])

        profile.backgroundSessionExpiryTerminates = false
        let spared = Self.device(onEvents: .neverComplete, profile: profile)
        Self.launchUploadAndGoHome(spared)
        spared.run(until: .seconds(60))
        #expect(Self.sessionEvents(spared).last == "expire 1 delivered")
        #expect(spared.terminations.isEmpty)
        #expect(spared.suspendedAt == .seconds(32))
    }

    @Test("D1: a force-quit cancels the pending transfers and launches nothing; the cancellations reach the session at the next launch")
    func forceQuitCancels() {
        let results = Box<[String]>([])
        let script = Self.device(results: results)
        Self.launchUploadAndGoHome(script)
        script.at(.seconds(5)) { $0.forceQuit() }
        script.at(.seconds(100)) { $0.launch() }
        script.run(until: .seconds(120))
        #expect(Self.sessionEvents(script) == [
            "create uploads 0", "transfer 1 start", "transfer 1 cancel", "create uploads 0", "transfer 1 deliver",
        ])
        #expect(results.value == ["IMG_1 failure(cancelledByForceQuit)"])
        #expect(script.device.processCount == 2)
    }

    @Test("D1: while the network is down a transfer waits, and it finishes once the network is back")
    func networkDownHoldsTransfers() {
        let script = Self.device()
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { Self.upload("IMG_1", $0) }  // 10 s of transfer
        script.at(.seconds(5)) { $0.perform(.networkDown) }  // 4 s done
        script.at(.seconds(50)) { $0.perform(.networkUp) }  // 6 s left
        script.run(until: .seconds(100))
        let transfer = script.events { event -> String? in
            if case .backgroundTransfer(_, _, let phase) = event { phase } else { nil }
        }
        #expect(transfer.map(\.value) == ["start", "wait", "resume", "finish", "deliver"])
        #expect(transfer.map(\.time).prefix(4) == [.seconds(1), .seconds(5), .seconds(50), .seconds(56)])
    }

    @Test("D1: a transfer fails with backgroundTransferFailureProbability")
    func transfersCanFail() {
        var profile = OSProfile.ios17
        profile.backgroundTransferFailureProbability = 1
        let results = Box<[String]>([])
        let script = Self.device(results: results, profile: profile)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { Self.upload("IMG_1", $0) }
        script.run(until: .seconds(30))
        #expect(results.value == ["IMG_1 failure(failed)"])
    }

    @Test("background-session-completion-called-once flags an early, a repeated, an off-main and a late call; background-session-recreated an undelivered wake")
    func checkerVerdicts() {
        let once = BackgroundSessionCompletionCalledOnce()
        let facts = RunFacts()
        func completed(onMain: Bool = true, after: Bool = true, repeated: Bool = false) -> String? {
            once.observe(.backgroundSessionCompleted(session: "s", wake: 1, onMain: onMain, afterEvents: after, repeated: repeated),
                         at: .seconds(1), facts: facts)
        }
        #expect(completed() == nil)
        #expect(completed(after: false)?.contains("before urlSessionDidFinishEvents") == true)
        #expect(completed(repeated: true)?.contains("a second time") == true)
        #expect(completed(onMain: false)?.contains("off the main thread") == true)
        let late = once.observe(.backgroundSessionExpired(session: "s", wake: 1, eventsDelivered: true, terminates: true),
                                at: .seconds(31), facts: facts)
        #expect(late?.contains("not called within its time") == true)
        #expect(once.observe(.backgroundSessionExpired(session: "s", wake: 1, eventsDelivered: false, terminates: true),
                             at: .seconds(31), facts: facts) == nil)

        let recreated = BackgroundSessionRecreated()
        #expect(recreated.observe(.backgroundSessionEvents(session: "s-2", wake: 0, phase: "create"), at: .seconds(1), facts: facts) == nil)
        let undelivered = recreated.observe(.backgroundSessionExpired(session: "s-1", wake: 1, eventsDelivered: false, terminates: false),
                                            at: .seconds(31), facts: facts)
        #expect(undelivered?.contains("(sessions made: \"s-2\")") == true)
        #expect(undelivered?.contains("background(withIdentifier: \"s-1\")") == true)
        #expect(recreated.observe(.backgroundSessionExpired(session: "s", wake: 1, eventsDelivered: true, terminates: false),
                                  at: .seconds(31), facts: facts) == nil)
    }
}

/// Accessory and Bluetooth wakes (D4): an app with the `bluetooth-central` or
/// `external-accessory` background mode is woken for about 10 s when its device sends data.
@Suite struct AccessoryWakeRuleTests {
    static func device(modes: [String], handled: Box<[String]>) -> ScriptedDevice {
        let hooks = ScriptedHooks()
        hooks.didFinishLaunching = { context in context.onAccessoryEvent { handled.value.append($0) } }
        var environment = EnvironmentConfig.scripted
        environment.weights[.accessoryWake] = 1
        return ScriptedDevice(modes: modes, environment: environment, hooks: hooks)
    }

    @Test("D4: with bluetooth-central the suspended app is woken in the background for accessoryWakeWindow (10 s), then suspended")
    func wakesWithTheMode() {
        let handled = Box<[String]>([])
        let script = Self.device(modes: ["bluetooth-central"], handled: handled)
        let offered = Box<Bool>(false)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(2)) { $0.home() }  // suspended at 3 s
        script.at(.seconds(20)) { script in
            offered.value = EnvironmentDriver(device: script.device, horizon: .zero).possibleActions().contains(.accessoryWake)
            script.perform(.accessoryWake)
        }
        script.run(until: .seconds(60))
        #expect(offered.value)
        #expect(handled.value == ["bluetooth-central"])
        #expect(script.stateTimes.filter { $0.time >= .seconds(20) }.map(\.time) == [.seconds(20), .seconds(31)])
        #expect(script.names(matching: "accessory.") == ["accessory.wake", "accessory.wake"])
    }

    @Test("D4: without an accessory background mode the action is not offered and wakes nothing")
    func nothingWithoutTheMode() {
        let handled = Box<[String]>([])
        let script = Self.device(modes: ["fetch"], handled: handled)
        let offered = Box<Bool>(true)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(2)) { $0.home() }
        script.at(.seconds(20)) { script in
            offered.value = EnvironmentDriver(device: script.device, horizon: .zero).possibleActions().contains(.accessoryWake)
            script.perform(.accessoryWake)
        }
        script.run(until: .seconds(60))
        #expect(!offered.value)
        #expect(handled.value.isEmpty)
        #expect(script.states.last == .suspended)
        #expect(script.suspendedAt == .seconds(3))
        #expect(script.names(matching: "accessory.").isEmpty)
    }

    @Test("D4: a force-quit app is not launched by its accessory; a not-running one is launched into the background")
    func launchesUnlessForceQuit() {
        let handled = Box<[String]>([])
        let quit = Self.device(modes: ["external-accessory"], handled: handled)
        quit.at(.zero) { $0.launch() }
        quit.at(.seconds(1)) { $0.forceQuit() }
        quit.at(.seconds(10)) { $0.perform(.accessoryWake) }
        quit.run(until: .seconds(30))
        #expect(quit.device.processCount == 1)
        #expect(quit.log.contains { $0.event == .accessoryWake(mode: "external-accessory", phase: "forceQuitBlocked") })

        let killed = Self.device(modes: ["external-accessory"], handled: handled)
        killed.at(.zero) { $0.launch() }
        killed.at(.seconds(2)) { $0.home() }
        killed.at(.seconds(5)) { $0.memoryPressureKill() }
        killed.at(.seconds(10)) { $0.perform(.accessoryWake) }
        killed.run(until: .seconds(30))
        #expect(killed.log.contains { $0.event == .processLaunched(process: 2, inBackground: true) })
        #expect(handled.value == ["external-accessory"])
        #expect(killed.suspendedAt == .seconds(21))
    }
}

private extension Result {
    var isSuccess: Bool { if case .success = self { true } else { false } }
}
