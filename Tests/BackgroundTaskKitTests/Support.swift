import BackgroundTaskKit
import Synchronization

final class TaskBox: @unchecked Sendable {
    // @unchecked: tests set it before the host can call back, on one thread.
    var task: BackgroundTaskToken?
}

final class DoneBox: @unchecked Sendable {
    // @unchecked: used from the test's thread only.
    var done: (@Sendable () -> Void)?
}

/// Records values from any thread.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withCriticalSection { $0.append(value) } }
    var all: [Value] { values.withCriticalSection { $0 } }
}

/// A host that calls the expiration handler inside `beginBackgroundTask`, before returning the
/// identifier: the worst case a token must survive (A3.4 on a host that does it synchronously).
/// Call `begin` on the main actor.
final class ImmediateExpiryHost: BackgroundTaskHost {
    private let state = Mutex<(next: Int, ended: [BackgroundTaskIdentifier])>((1, []))

    func beginBackgroundTask(withName name: String?, expirationHandler: ExpirationHandler?) -> BackgroundTaskIdentifier {
        let id = state.withCriticalSection { state in
            defer { state.next += 1 }
            return BackgroundTaskIdentifier(rawValue: state.next)
        }
        MainActor.assumeIsolated { expirationHandler?() }  // A3.1: the caller plays the main thread
        return id
    }

    func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        state.withCriticalSection { $0.ended.append(identifier) }
    }

    var ended: [BackgroundTaskIdentifier] { state.withCriticalSection { $0.ended } }
    var backgroundTimeRemaining: Double { 0 }
    var applicationState: ApplicationState { .background }
}

/// Waits (on the real clock: these tests run real Swift tasks) until `condition` holds, for at
/// most `seconds`; returns whether it did.
func eventually(seconds: Double = 10, isolation: isolated (any Actor)? = #isolation,
                _ condition: () -> Bool) async -> Bool {
    let step = Duration.milliseconds(1)
    var waited = Duration.zero
    while !condition() {
        if waited > .seconds(seconds) { return false }
        try? await Task.sleep(for: step)
        waited += step
    }
    return true
}
