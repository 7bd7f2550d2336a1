import BackgroundTaskKit
import DeterministicSimulation

/// Where every access to a `SharedState` of the simulated app arrives, before it happens: the one
/// place the simulator turns a read or a write of shared app state into a scheduling point.
///
/// ```swift
/// let didComplete = app.makeShared(name: "didComplete", initialValue: false)
/// if !didComplete.value { didComplete.value = true }   // two calls of record(_:of:name:on:)
/// ```
///
/// Contract: ``record(_:of:name:on:)`` is a scheduling point of the running simulated thread
/// (``Scheduler/recordSharedAccess(_:to:name:)``), so another thread may run between a read and
/// the write that depends on it; in a run that checks `no-data-race` (every workload's, unless
/// it opts out with `sharesState: false`), the access is also checked for a data race and traced
/// (`threads.access`, then `threads.race` if it completes one). It draws nothing beyond what a
/// scheduling point does; without controlled concurrency and without race checking it changes
/// nothing.
enum SharedStateAccess {
    /// Records a `kind` access to the variable `state` named `name` on `device`'s run.
    static func record(_ kind: SharedStateAccessKind, of state: ObjectIdentifier, name: String, on device: SimulatedDevice) {
        device.scheduler.recordSharedAccess(kind == .read ? .read : .write, to: state, name: name)
    }

    /// Forgets a freed variable's accesses, so a new one at the same address starts clean.
    static func forget(_ state: ObjectIdentifier, on device: SimulatedDevice) {
        device.scheduler.forgetSharedLocation(state)
    }
}

/// The observer a simulated process gives each `SharedState` it makes: forwards every access to
/// ``SharedStateAccess/record(_:of:name:on:)``.
///
/// Contract: it does not keep the device alive; once the run's device is gone (a test reading a
/// flag after its run) accesses are plain storage.
final class SharedStateRecorder: SharedStateObserver, @unchecked Sendable {
    // @unchecked: confined to the run's thread, as the device it refers to.
    private let deviceReference: DeviceReference

    init(device: SimulatedDevice) { deviceReference = DeviceReference(device, owner: "SharedState") }

    func willAccess(_ kind: SharedStateAccessKind, of state: ObjectIdentifier, name: String) {
        guard deviceReference.isDeviceAlive else { return }
        SharedStateAccess.record(kind, of: state, name: name, on: deviceReference.device)
    }

    func didRelease(_ state: ObjectIdentifier) {
        guard deviceReference.isDeviceAlive else { return }
        SharedStateAccess.forget(state, on: deviceReference.device)
    }
}
