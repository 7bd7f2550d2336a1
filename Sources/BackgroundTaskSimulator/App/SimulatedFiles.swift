import BackgroundTaskKit
import DeterministicSimulation

/// The process's files: writes and reads that obey data protection, and file locks in the app
/// group's shared container, so that a night-time BGTask and a database shared with a widget
/// meet the failures a device gives them.
///
/// ```swift
/// do {
///     try context.files.write("articles.json", protection: .completeUntilFirstUserAuthentication, for: work)
///     work.finish()
/// } catch {
///     work.cancel()     // locked before first unlock: keep the articles in memory, retry later
/// }
/// let lock = context.files.lockShared("group.notes/notes.sqlite")   // a write transaction
/// lock.unlock()                                                    // before the task ends
/// ```
///
/// Contract:
/// - A write or read succeeds when the file's class key is available (``FileProtection``,
///   ``DeviceStorage``), and throws ``FileError/protectedDataUnavailable`` otherwise; a read of a
///   file never written throws ``FileError/noSuchFile``. Files outlive the process.
/// - A shared-container lock is held until ``SharedFileLock/unlock()`` or the process dies. When
///   the app is suspended while holding one, the system kills it with `0xdead10cc`
///   (``OSProfile/killsOnSharedFileLockAtSuspension``; Apple's "Understanding the exception types
///   in a crash report": the app "held on to a file lock or SQLite database lock during
///   suspension"; DTS forum thread 655225).
/// - Each operation is one `file` event (name, operation, protection, work item, outcome) and a
///   scheduling point, like a system call.
public final class SimulatedFiles: @unchecked Sendable {
    // @unchecked: one simulated thread of the run touches it at a time.
    private unowned let application: SimulatedApplication
    /// The shared-container files this process holds a lock on, in locking order.
    private(set) var heldLocks: [String] = []

    init(application: SimulatedApplication) {
        self.application = application
    }

    /// Whether files of class `protection` can be read now (`UIApplication.isProtectedDataAvailable`
    /// answers this for ``FileProtection/complete``).
    public func isAvailable(_ protection: FileProtection) -> Bool {
        let device = application.device
        return device.storage.isAvailable(protection, creating: false, at: device.now,
                                          lockDelay: device.profile.completeProtectionLockDelay)
    }

    /// `UIApplication.isProtectedDataAvailable`: whether complete-protection files are readable.
    public var isProtectedDataAvailable: Bool { isAvailable(.complete) }

    /// Writes file `name` with class `protection` (replacing it), for `work` (nil when none).
    public func write(_ name: String, protection: FileProtection, for work: WorkItem? = nil) throws(FileError) {
        let device = application.device
        device.scheduler.schedulingPoint()
        let creating = device.storage.protection(of: name) == nil
        let available = device.storage.isAvailable(protection, creating: creating, at: device.now,
                                                   lockDelay: device.profile.completeProtectionLockDelay)
        record(name, "write", protection, work, available ? nil : .protectedDataUnavailable)
        guard available else { throw .protectedDataUnavailable }
        device.storage.store(name, protection: protection)
    }

    /// Reads file `name`, for `work` (nil when none).
    public func read(_ name: String, for work: WorkItem? = nil) throws(FileError) {
        let device = application.device
        device.scheduler.schedulingPoint()
        guard let protection = device.storage.protection(of: name) else {
            record(name, "read", .none, work, .noSuchFile)
            throw .noSuchFile
        }
        let available = isAvailable(protection)
        record(name, "read", protection, work, available ? nil : .protectedDataUnavailable)
        guard available else { throw .protectedDataUnavailable }
    }

    /// Takes a lock on file `name` in the app group's shared container (an SQLite write
    /// transaction, a `flock`): hold it as briefly as the write it protects.
    public func lockShared(_ name: String) -> SharedFileLock {
        let device = application.device
        device.scheduler.schedulingPoint()
        heldLocks.append(name)
        record(name, "lock", .none, nil, nil)
        return SharedFileLock(name: name, files: self)
    }

    fileprivate func release(_ name: String) {
        guard application.isAlive, let index = heldLocks.firstIndex(of: name) else { return }
        heldLocks.remove(at: index)
        record(name, "unlock", .none, nil, nil)
    }

    private func record(_ name: String, _ operation: String, _ protection: FileProtection, _ work: WorkItem?, _ error: FileError?) {
        application.device.emit(.fileAccess(file: name, operation: operation, protection: protection.rawValue,
                                            work: work?.id ?? 0, outcome: error?.rawValue ?? "ok"))
    }
}

/// A lock held on a file in the shared container (``SimulatedFiles/lockShared(_:)``).
///
/// ```swift
/// let lock = context.files.lockShared("group.notes/notes.sqlite")
/// defer { lock.unlock() }
/// ```
///
/// Contract: ``unlock()`` releases it once; later calls do nothing. Dropping the lock object does
/// not release it (a database connection left open keeps its lock).
public final class SharedFileLock: @unchecked Sendable {
    // @unchecked: one simulated thread of the run touches it at a time.
    /// The locked file.
    public let name: String
    private weak var files: SimulatedFiles?
    private var released = false

    fileprivate init(name: String, files: SimulatedFiles) {
        self.name = name
        self.files = files
    }

    /// Whether the lock is still held.
    public var isHeld: Bool { !released }

    /// Releases the lock (commits or rolls back the transaction, closes the file).
    public func unlock() {
        guard !released else { return }
        released = true
        files?.release(name)
    }
}

extension SimulatedApplication {
    /// The process's files, made on first use.
    var files: SimulatedFiles {
        if let made = core.files { return made }
        let made = SimulatedFiles(application: self)
        core.files = made
        return made
    }

    /// The first shared-container file this process holds a lock on, if any.
    var heldSharedFileLock: String? { core.files?.heldLocks.first }
}

extension WorkloadContext {
    /// The process's files: protected reads and writes, shared-container locks (``SimulatedFiles``).
    public var files: SimulatedFiles { application.files }
}
