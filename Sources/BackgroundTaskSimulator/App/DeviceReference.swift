/// A reference to a run's ``SimulatedDevice`` that does not keep it alive and traps if it is
/// used after the device is gone: the contract of an `unowned` reference, for the price of a
/// load and a branch per use.
///
/// ```swift
/// private let deviceReference: DeviceReference
/// init(device: SimulatedDevice) { deviceReference = DeviceReference(device, owner: "WorkItem") }
/// var device: SimulatedDevice { deviceReference.device }   // traps once the device is gone
/// ```
///
/// Why it exists: a run's objects refer back to their device several times per event (each
/// process, its work items, BGTaskScheduler's daemon, the environment driver). A strong
/// reference would make a cycle; a plain `unowned` reference costs a strong retain and release
/// on every access; `unowned(unsafe)` alone is free but makes a use after the device is gone
/// undefined behaviour, and a user may keep a ``SimulatedApplication`` or ``WorkItem`` after
/// its run. So this holds the device unretained *and* its ``DeviceLifetime`` strongly, and
/// checks the lifetime before handing the device out. This file is the only place the simulator
/// follows an `unowned(unsafe)` reference to the device.
///
/// Contract: ``device`` returns the device while it exists; once the device's `deinit` has
/// begun it stops the process with a precondition failure naming the owner (also in release
/// builds). ``isDeviceAlive`` tells which without trapping. Confined to the run's thread.
struct DeviceReference {
    /// The device, unretained; followed only after checking ``lifetime``.
    private unowned(unsafe) let unchecked: SimulatedDevice
    /// Cleared by the device's `deinit`; held strongly, so it outlives the device.
    private let lifetime: DeviceLifetime
    /// The type that holds this reference, for the trap's message.
    private let owner: StaticString

    /// A reference to `device` on behalf of `owner` (a type name, for the trap's message).
    init(_ device: SimulatedDevice, owner: StaticString) {
        self.unchecked = device
        self.lifetime = device.lifetime
        self.owner = owner
    }

    /// Whether the device still exists (``device`` would not trap).
    var isDeviceAlive: Bool { lifetime.isAlive }

    /// The device; traps if it no longer exists.
    var device: SimulatedDevice {
        precondition(lifetime.isAlive, "\(owner) used after its SimulatedDevice was deallocated")
        return unchecked
    }
}

/// Whether a ``SimulatedDevice`` still exists: made by the device, cleared in its `deinit`
/// (before its memory goes), and held strongly by every ``DeviceReference`` to it.
final class DeviceLifetime: @unchecked Sendable {
    // @unchecked: a run and all its objects are confined to one thread.
    /// True until the device's `deinit` begins.
    var isAlive = true
}
