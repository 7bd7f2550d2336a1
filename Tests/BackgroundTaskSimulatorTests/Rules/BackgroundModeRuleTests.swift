import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Audio and location sessions (D5, A4.8, issue 19): while one is active the app is not suspended
/// in the background and its background tasks do not expire; when the last one ends the budget
/// starts and the app is suspended once nothing else holds it.
@Suite struct BackgroundModeRuleTests {
    static func device(modes: [String] = ["audio", "location"], profile: OSProfile = .ios17) -> ScriptedDevice {
        ScriptedDevice(profile: profile, modes: modes)
    }

    @Test("D5: an audio session held in the background keeps the app running; ending it lets the app be suspended")
    func audioKeepsAppAwake() {
        let script = Self.device()
        let playback = Box<BackgroundModeAssertion?>(nil)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { playback.value = $0.context.beginBackgroundModeAssertion(.audio) }
        script.at(.seconds(5)) { $0.home() }
        script.at(.seconds(300)) { _ in playback.value?.end() }
        script.run(until: .seconds(400))
        #expect(playback.value != nil)
        #expect(script.suspendedAt == .seconds(301))  // held for 295 s in the background, then the 1 s delay
        #expect(script.names(matching: "app.modeAssertion").count == 2)
    }

    @Test("A4.8: a background task does not expire while a location session is held; the budget starts when it ends")
    func noExpiryWhileHeld() {
        let script = Self.device()
        let tracking = Box<BackgroundModeAssertion?>(nil)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { script in
            tracking.value = script.context.beginBackgroundModeAssertion(.location)
            script.begin("track-upload")
        }
        script.at(.seconds(5)) { $0.home() }
        script.at(.seconds(200)) { _ in tracking.value?.end() }
        script.run(until: .seconds(400))
        let callouts = script.times { if case .expirationCallout = $0 { true } else { false } }
        #expect(callouts == [.seconds(226)])  // a fresh 30 s budget from 200 s, handlers 4 s before its end
        #expect(script.terminations.isEmpty)
    }

    @Test("D5: no session without the background mode, or with backgroundModeAssertionsHoldApp off")
    func needsModeAndProfile() {
        let plain = Self.device(modes: [])
        plain.at(.zero) { $0.launch() }
        let refused = Box<Bool>(false)
        plain.at(.seconds(1)) { refused.value = $0.context.beginBackgroundModeAssertion(.audio) == nil }
        plain.run(until: .seconds(2))
        #expect(refused.value)

        var profile = OSProfile.ios17
        profile.backgroundModeAssertionsHoldApp = false
        let off = Self.device(profile: profile)
        off.at(.zero) { $0.launch() }
        let none = Box<Bool>(false)
        off.at(.seconds(1)) { none.value = $0.context.beginBackgroundModeAssertion(.location) == nil }
        off.at(.seconds(5)) { $0.home() }
        off.run(until: .seconds(60))
        #expect(none.value)
        #expect(off.suspendedAt == .seconds(6))
    }
}
