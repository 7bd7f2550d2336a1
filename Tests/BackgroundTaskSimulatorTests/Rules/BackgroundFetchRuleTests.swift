import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Background fetch (D3, C2.7, issue 19): on iOS 7-12, once the app set a minimum interval, the
/// system wakes or launches it for a fetch no sooner than that interval, and the app must call the
/// completion handler once within about 30 s.
@Suite struct BackgroundFetchRuleTests {
    static func device(profile: OSProfile = .ios12, permitted: [String] = [],
                       completions: Box<[FetchCompletionHandler]>) -> ScriptedDevice {
        let hooks = ScriptedHooks()
        hooks.didFinishLaunching = { context in
            context.onBackgroundFetch(minimumInterval: .seconds(600)) { completions.value.append($0) }
        }
        return ScriptedDevice(profile: profile, permitted: permitted, modes: ["fetch"], hooks: hooks)
    }

    static func canFetch(_ script: ScriptedDevice) -> Bool {
        EnvironmentDriver(device: script.device, horizon: .zero).possibleActions().contains(.backgroundFetch)
    }

    @Test("D3: a due fetch wakes the suspended app, holds it until the completion handler, and waits the interval for the next")
    func fetchWakesAndWaits() {
        let completions = Box<[FetchCompletionHandler]>([])
        let script = Self.device(completions: completions)
        let due = Box<[Bool]>([])
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { due.value.append(Self.canFetch($0)) }  // foreground: never
        script.at(.seconds(5)) { $0.home() }
        script.at(.seconds(20)) { script in
            due.value.append(Self.canFetch(script))
            script.perform(.backgroundFetch)
        }
        script.at(.seconds(30)) { _ in completions.value.first?(.newData) }
        script.at(.seconds(100)) { due.value.append(Self.canFetch($0)) }  // within the interval
        script.at(.seconds(700)) { due.value.append(Self.canFetch($0)) }
        script.run(until: .seconds(800))
        #expect(due.value == [false, true, false, true])
        #expect(completions.value.count == 1)
        let states = script.stateTimes.filter { $0.time >= .seconds(20) }.map(\.value)
        #expect(states.prefix(2) == [.background, .suspended])
        #expect(script.suspendedAt == .seconds(31))
    }

    @Test("D3: a fetch not completed in about 30 s kills the app; only iOS 7-12 and no BGTaskScheduler identifiers (C2.7)")
    func lateFetchKills() {
        let completions = Box<[FetchCompletionHandler]>([])
        let script = Self.device(completions: completions)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(5)) { $0.home() }
        script.at(.seconds(20)) { $0.perform(.backgroundFetch) }
        script.run(until: .seconds(100))
        #expect(script.terminations.map(\.time) == [.seconds(50)])
        #expect(script.names(matching: "fetch").contains("fetch"))

        let modern = Self.device(profile: .ios17, completions: completions)
        modern.at(.zero) { $0.launch() }
        modern.at(.seconds(5)) { $0.home() }
        let modernDue = Box<Bool>(true)
        modern.at(.seconds(20)) { modernDue.value = Self.canFetch($0) }
        modern.run(until: .seconds(30))
        #expect(!modernDue.value)
    }

    @Test("C2.7: an app with BGTaskScheduler identifiers gets no background fetch")
    func permittedIdentifiersDisableFetch() {
        let completions = Box<[FetchCompletionHandler]>([])
        let script = Self.device(permitted: ["com.example.refresh"], completions: completions)
        let due = Box<Bool>(true)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(5)) { $0.home() }
        script.at(.seconds(20)) { due.value = Self.canFetch($0) }
        script.run(until: .seconds(30))
        #expect(!due.value)
    }
}
