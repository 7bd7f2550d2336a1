import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Device lock and data protection (issue 19): `lock` differs from `home`; complete-protection
/// files go dark `completeProtectionLockDelay` after the lock (Apple Platform Security: 10 s);
/// after a reboot (B3.1: no willTerminate) only unprotected files are reachable until the first
/// unlock; an app suspended holding a shared-container lock is killed with 0xdead10cc.
@Suite struct DataProtectionRuleTests {
    /// Writes `name` with `protection` at `time`; the outcome goes into `results`.
    static func write(_ name: String, _ protection: FileProtection, at time: VirtualTime, on script: ScriptedDevice,
                      into results: Box<[FileError?]>) {
        script.at(time) { script in
            do throws(FileError) {
                try script.context.files.write(name, protection: protection)
                results.value.append(nil)
            } catch {
                results.value.append(error)
            }
        }
    }

    @Test("home keeps complete-protection files writable; lock makes them unwritable after the 10 s delay")
    func lockDiffersFromHome() {
        let script = ScriptedDevice()
        let results = Box<[FileError?]>([])
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.perform(.home) }
        Self.write("a", .complete, at: .seconds(30), on: script, into: results)  // home: still unlocked
        script.at(.seconds(40)) { $0.perform(.open) }
        script.at(.seconds(50)) { $0.perform(.lock) }
        Self.write("b", .complete, at: .seconds(59), on: script, into: results)  // inside the delay
        Self.write("c", .complete, at: .seconds(61), on: script, into: results)  // past it
        Self.write("d", .completeUntilFirstUserAuthentication, at: .seconds(62), on: script, into: results)
        Self.write("e", .completeUnlessOpen, at: .seconds(63), on: script, into: results)  // a new file: allowed
        Self.write("b", .completeUnlessOpen, at: .seconds(64), on: script, into: results)  // existing, closed: no
        script.at(.seconds(70)) { $0.perform(.open) }  // the user unlocks
        Self.write("c", .complete, at: .seconds(71), on: script, into: results)
        script.run(until: .seconds(80))
        #expect(results.value == [nil, nil, .protectedDataUnavailable, nil, nil, .protectedDataUnavailable, nil])
        #expect(script.names.contains("file"))
    }

    @Test("the lock delay is a profile parameter")
    func lockDelayIsAParameter() {
        var profile = OSProfile.ios17
        profile.completeProtectionLockDelay = .seconds(30)
        let script = ScriptedDevice(profile: profile)
        let results = Box<[FileError?]>([])
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.perform(.lock) }
        Self.write("a", .complete, at: .seconds(20), on: script, into: results)
        Self.write("a", .complete, at: .seconds(40), on: script, into: results)
        script.run(until: .seconds(60))
        #expect(results.value == [nil, .protectedDataUnavailable])
    }

    @Test("a reboot kills the app without willTerminate (B3.1); before the first unlock only unprotected files are reachable")
    func rebootBeforeFirstUnlock() {
        let script = ScriptedDevice()
        let results = Box<[FileError?]>([])
        let available = Box<[Bool]>([])
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { $0.perform(.home) }
        script.at(.seconds(5)) { $0.perform(.reboot) }
        script.at(.seconds(10)) { $0.launch(inBackground: true) }  // B2.2: a background launch
        Self.write("a", .completeUntilFirstUserAuthentication, at: .seconds(11), on: script, into: results)
        Self.write("b", .none, at: .seconds(12), on: script, into: results)
        script.at(.seconds(13)) { available.value.append($0.context.files.isProtectedDataAvailable) }
        script.at(.seconds(20)) { $0.perform(.open) }  // the first unlock
        Self.write("a", .completeUntilFirstUserAuthentication, at: .seconds(21), on: script, into: results)
        script.at(.seconds(22)) { available.value.append($0.context.files.isProtectedDataAvailable) }
        script.run(until: .seconds(30))
        #expect(script.terminations.map(\.value) == [.reboot])
        #expect(!script.lifecycle.contains(.willTerminate))
        #expect(!TerminationReason.reboot.isPreventable)
        #expect(results.value == [.protectedDataUnavailable, nil, nil])
        #expect(available.value == [false, true])
    }

    @Test("reading a file takes the class it was written with; a file never written is noSuchFile")
    func readsFollowTheFilesClass() {
        let script = ScriptedDevice()
        let results = Box<[FileError?]>([])
        script.at(.zero) { $0.launch() }
        Self.write("a", .complete, at: .seconds(1), on: script, into: results)
        script.at(.seconds(2)) { $0.perform(.lock) }
        for (time, name) in [(VirtualTime.seconds(20), "a"), (.seconds(21), "missing")] {
            script.at(time) { script in
                do throws(FileError) { try script.context.files.read(name); results.value.append(nil) } catch { results.value.append(error) }
            }
        }
        script.run(until: .seconds(30))
        #expect(results.value == [nil, .protectedDataUnavailable, .noSuchFile])
    }

    @Test("an app suspended holding a shared-container lock is killed with 0xdead10cc; released in time, it is suspended")
    func fileLockAtSuspension() {
        for releases in [false, true] {
            let script = ScriptedDevice()
            script.at(.zero) { $0.launch() }
            script.at(.seconds(1)) { script in
                let lock = script.context.files.lockShared("group.notes/notes.sqlite")
                let id = script.begin("save")
                script.app.backgroundQueue.asyncAfter(.seconds(5)) {
                    if releases { lock.unlock() }
                    script.end(id)
                }
            }
            script.at(.seconds(2)) { $0.home() }
            script.run(until: .seconds(60))
            if releases {
                #expect(script.terminations.isEmpty)
                #expect(script.states.last == .suspended)
            } else {
                #expect(script.terminations.map(\.value) == [.fileLockHeld(file: "group.notes/notes.sqlite")])
                #expect(TerminationReason.fileLockHeld(file: "x").exceptionCode == "0xdead10cc")
            }
        }
    }

    @Test("with killsOnSharedFileLockAtSuspension off the app is suspended with the lock, and the invariant still reports it")
    func fileLockKillIsAParameter() throws {
        var profile = OSProfile.ios17
        profile.killsOnSharedFileLockAtSuspension = false
        let script = ScriptedDevice(profile: profile)
        script.at(.zero) { $0.launch() }
        script.at(.seconds(1)) { _ = $0.context.files.lockShared("group.notes/notes.sqlite") }
        script.at(.seconds(2)) { $0.home() }
        script.run(until: .seconds(30))
        #expect(script.terminations.isEmpty)
        #expect(script.states.last == .suspended)
        let checker = NoFileLockAtSuspend()
        let facts = RunFacts()
        let messages = script.log.compactMap { checker.observe($0.event, at: $0.time, facts: facts) }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("group.notes/notes.sqlite") == true)
    }
}
