import Foundation
import Synchronization

/// The device's `UserDefaults.standard` inside a run: a real `UserDefaults` of its own suite, so
/// app code's settings behave as Foundation's do (every type conversion, `register(defaults:)`,
/// `synchronize()`), persist across the run's app launches as on a device, and never reach the
/// next run.
///
/// ```swift
/// // app code in the run, unchanged:
/// if UserDefaults.standard.double(forKey: "lastSync") + 600 > Date().timeIntervalSince1970 { return }
/// UserDefaults.standard.set(Date().timeIntervalSince1970, forKey: "lastSync")
/// ```
///
/// Why: `UserDefaults.standard` is one per OS process, and a campaign runs many runs in one: what
/// one run stored the next one read (a sync skipped because "it ran 10 minutes ago", in another
/// run), and a rerun of the same seed took another path (reported as NONDETERMINISM).
///
/// Contract: the suite's name is unique in the OS process and the machine (pid and a counter);
/// it starts empty (a leftover of a dead process with the same name is removed first);
/// ``remove()`` at the device's teardown (or when it is freed) removes its domain and any file
/// `synchronize()` wrote.
/// Code of a dead process gets a second suite of its own (what it stores reaches no launch).
final class RunUserDefaults: @unchecked Sendable {
    // @unchecked: a run is confined to one thread at a time (the baton orders the accesses).
    private var suites: [(name: String, defaults: UserDefaults)] = []
    private var live: UserDefaults?
    private var inert: UserDefaults?

    /// The live app's defaults, or (`deadCode`) the one dead processes' code writes to.
    func defaults(deadCode: Bool) -> UserDefaults {
        if deadCode {
            if let inert { return inert }
            let made = makeSuite()
            inert = made
            return made
        }
        if let live { return live }
        let made = makeSuite()
        live = made
        return made
    }

    deinit { remove() }

    /// Removes every suite's domain (and its file, if `synchronize()` wrote one).
    func remove() {
        for suite in suites {
            suite.defaults.removePersistentDomain(forName: suite.name)
            suite.defaults.synchronize()
        }
        suites = []
        live = nil
        inert = nil
    }

    private func makeSuite() -> UserDefaults {
        let name = "bgsim-run-\(ProcessInfo.processInfo.processIdentifier)-\(Self.next())"
        guard let defaults = UserDefaults(suiteName: name) else {
            preconditionFailure("UserDefaults refused the suite name \(name)")
        }
        defaults.removePersistentDomain(forName: name)
        suites.append((name, defaults))
        return defaults
    }

    private static let counter = Mutex(0)

    private static func next() -> Int {
        counter.withLock { value in
            value += 1
            return value
        }
    }
}
