import DeterministicSimulation

/// A file's data protection class (`FileProtectionType`): when the system holds the key that
/// decrypts it.
///
/// ```swift
/// try context.files.write("articles.json", protection: .completeUntilFirstUserAuthentication, for: work)
/// ```
///
/// Contract (Apple's `FileProtectionType` documentation and the Apple Platform Security guide;
/// DTS forum threads 15685 and 771951):
/// - ``none``: readable and writable whenever the device is on.
/// - ``completeUntilFirstUserAuthentication``: unavailable from a boot until the user first
///   unlocks the device, then available until the next reboot. The default of an app's
///   container since iOS 7, so a background launch before first unlock cannot read the app's
///   own files (or its `UserDefaults`).
/// - ``completeUnlessOpen``: a new file can be created while the device is locked (after first
///   unlock); an existing file cannot be opened again until the device is unlocked.
/// - ``complete``: unavailable while the device is locked, from a short delay after the lock
///   (``OSProfile/completeProtectionLockDelay``, 10 s by default) until the next unlock; "the ONLY
///   safe time that data can be accessed is after applicationDidBecomeActive" (DTS, 771951).
public enum FileProtection: String, Sendable, CaseIterable, CustomStringConvertible {
    case none
    case completeUntilFirstUserAuthentication
    case completeUnlessOpen
    case complete

    public var description: String { rawValue }
}

/// Why a simulated file operation failed.
public enum FileError: String, Error, Sendable, CaseIterable, CustomStringConvertible {
    /// The file's class key is not available (device locked, or not unlocked since boot): the
    /// error a real app gets as `NSFileReadNoPermissionError`/`NSFileWriteNoPermissionError`
    /// ("authorization denied").
    case protectedDataUnavailable
    /// Reading a file that was never written.
    case noSuchFile

    public var description: String { rawValue }
}

/// The device's lock state and what is on its disk: what decides whether a protected file can be
/// read or written. Owned by ``SimulatedDevice``; it outlives processes (files survive a
/// termination and a reboot, keys do not survive a reboot).
///
/// ```swift
/// var storage = DeviceStorage()
/// storage.lock(at: .seconds(5))
/// storage.isAvailable(.complete, creating: false, at: .seconds(20), lockDelay: .seconds(10))  // false
/// ```
///
/// Contract: the device starts unlocked and past its first unlock (the user is holding it). A
/// `lock` action locks it; the user's `open` and `launch` unlock it; a `reboot` locks it and
/// forgets the first unlock. Availability is computed from the lock time when asked, so a lock
/// schedules no job and adds nothing to a run that touches no file.
struct DeviceStorage {
    /// Whether the screen is locked.
    private(set) var isLocked = false
    /// When the device was last locked.
    private var lockedAt = VirtualTime.zero
    /// Whether the user has unlocked the device since it booted.
    private(set) var unlockedSinceBoot = true
    /// The files on disk, in creation order, with their protection class.
    private(set) var files: [(name: String, protection: FileProtection)] = []

    mutating func lock(at time: VirtualTime) {
        guard !isLocked else { return }
        isLocked = true
        lockedAt = time
    }

    mutating func unlock() {
        isLocked = false
        unlockedSinceBoot = true
    }

    /// The device restarts: locked, and no class key but ``FileProtection/none``'s until the user
    /// unlocks it.
    mutating func reboot(at time: VirtualTime) {
        isLocked = true
        lockedAt = time
        unlockedSinceBoot = false
    }

    /// Whether data of class `protection` can be reached at `time`; `creating` is true for the
    /// write that creates a file (``FileProtection/completeUnlessOpen`` allows it while locked).
    func isAvailable(_ protection: FileProtection, creating: Bool, at time: VirtualTime, lockDelay: VirtualDuration) -> Bool {
        switch protection {
        case .none:
            return true
        case .completeUntilFirstUserAuthentication:
            return unlockedSinceBoot
        case .completeUnlessOpen:
            return unlockedSinceBoot && (creating || !isLocked || time < lockedAt + lockDelay)
        case .complete:
            return unlockedSinceBoot && (!isLocked || time < lockedAt + lockDelay)
        }
    }

    /// The protection class of file `name`, if it exists.
    func protection(of name: String) -> FileProtection? {
        files.first(where: { $0.name == name })?.protection
    }

    /// Records that file `name` now exists with class `protection` (a write replaces the file).
    mutating func store(_ name: String, protection: FileProtection) {
        if let index = files.firstIndex(where: { $0.name == name }) {
            files[index].protection = protection
        } else {
            files.append((name, protection))
        }
    }
}
