/// Data the app keeps in memory and saves to disk, such as an upload queue or a draft: the
/// harness counts the changes that are only in memory, so `work-survives-termination` can tell
/// when a process dies with some of them unsaved.
///
/// ```swift
/// let queue = context.durableRecord("upload-queue")
/// queue.change()          // the user queued a photo: in memory only
/// queue.save()            // written to disk: survives any termination
/// ```
///
/// Contract: a record belongs to one process (a relaunched process starts from what is on disk,
/// with nothing unsaved). ``change()`` and ``save()`` each record one `data.record` event with
/// the number of unsaved changes; a save with nothing to save records nothing. Neither is a
/// scheduling point, so a change and the save that follows it in the same job reach the disk
/// together (like an atomic file write).
public final class DurableRecord: @unchecked Sendable {
    // @unchecked: one simulated thread of the run touches it at a time.
    /// The record's name, as the trace and the violation message give it.
    public let name: String
    /// How many changes are in memory and not on disk.
    public var unsavedChanges: Int { unsaved }
    /// How many times the record was saved with changes in this process.
    public var saveCount: Int { saves }
    private var unsaved = 0
    private var saves = 0
    /// Not retained: a user may keep a record after its run, when the device may be gone.
    private let deviceReference: DeviceReference

    init(name: String, device: SimulatedDevice) {
        self.name = name
        self.deviceReference = DeviceReference(device, owner: "DurableRecord")
    }

    /// The in-memory copy changed (something the user would not want to lose).
    public func change() {
        unsaved += 1
        deviceReference.device.emit(.recordChanged(record: name, unsavedChanges: unsaved))
    }

    /// Writes the in-memory copy to disk: every change so far survives a termination.
    public func save() {
        guard unsaved > 0 else { return }
        unsaved = 0
        saves += 1
        deviceReference.device.emit(.recordChanged(record: name, unsavedChanges: 0))
    }
}

extension WorkloadContext {
    /// A ``DurableRecord`` named `name` for this process: data that must survive termination.
    ///
    /// ```swift
    /// let queue = context.durableRecord("upload-queue")
    /// observation = context.onDidEnterBackground { queue.save() }
    /// ```
    public func durableRecord(_ name: String) -> DurableRecord {
        DurableRecord(name: name, device: application.device)
    }
}
