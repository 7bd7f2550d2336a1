/// Whether a recorded access to shared state reads it or writes it.
///
/// ```swift
/// scheduler.recordSharedAccess(.write, to: ObjectIdentifier(flag), name: "didComplete")
/// ```
public enum SharedAccessKind: String, Sendable, Hashable {
    case read
    case write
}

/// One access to shared state, as a data-race report names it: what, where and when.
///
/// ```swift
/// let access = race.first
/// print(access.kind, access.thread, access.time)   // write workers#1 1.500000s
/// ```
public struct SharedAccess: Sendable, Hashable {
    /// Read or write.
    public let kind: SharedAccessKind
    /// The simulated thread's label (`"main"`, `"workers#2"`), or without controlled concurrency
    /// the queue's; `"driver"` for code outside every job.
    public let thread: String
    /// The job that made it (nil outside every job; a repeating timer's id for each of its fires).
    public let job: JobID?
    /// The virtual time it was made at.
    public let time: VirtualTime
    /// The app's function that made a plain access (`"Uploader.finish() -> ()"`), when it is not
    /// the accessor of the variable itself; nil for named shared state.
    public let site: String?

    /// Creates an access description (for tests; the detector makes these).
    ///
    /// ```swift
    /// let write = SharedAccess(kind: .write, thread: "workers#1", job: JobID(rawValue: 4), time: .zero)
    /// ```
    public init(kind: SharedAccessKind, thread: String, job: JobID?, time: VirtualTime, site: String? = nil) {
        self.kind = kind
        self.thread = thread
        self.job = job
        self.time = time
        self.site = site
    }

    /// This access, made in `site`.
    func made(in site: String?) -> SharedAccess {
        SharedAccess(kind: kind, thread: thread, job: job, time: time, site: site)
    }
}

extension SharedAccess: CustomStringConvertible {
    /// `"a write on workers#1 (job 4) at 1.500000s"`; with a site,
    /// `"a write in Uploader.finish() -> () on workers#1 (job 4) at 1.500000s"`.
    public var description: String {
        let article = (kind == .write ? "a write" : "a read") + (site.map { " in \($0)" } ?? "")
        let job = job.map { " (job \($0.rawValue))" } ?? ""
        return "\(article) on \(thread)\(job) at \(time)"
    }
}

/// Two accesses to the same shared state that no synchronisation orders, at least one of them a
/// write: a data race, whatever order this run happened to make them in.
///
/// ```swift
/// if let race = scheduler.dataRaces.first {
///     print(race)   // 'didComplete': a write on workers#1 (job 4) at 0.000000s and a read on main …
/// }
/// ```
///
/// Contract: ``first`` is the earlier of the two in the run (the one recorded before), ``second``
/// the access that found the race.
public struct DataRace: Sendable, Hashable {
    /// The shared state's name, as given to ``Scheduler/recordSharedAccess(_:to:name:)``.
    public let location: String
    public let first: SharedAccess
    public let second: SharedAccess

    /// Creates a race description (for tests; the detector makes these).
    ///
    /// ```swift
    /// let race = DataRace(location: "didComplete", first: write, second: read)
    /// ```
    public init(location: String, first: SharedAccess, second: SharedAccess) {
        self.location = location
        self.first = first
        self.second = second
    }
}

extension DataRace: CustomStringConvertible {
    /// One line naming the state and both accesses.
    public var description: String {
        "'\(location)': \(first) and \(second) are not ordered by any queue hand-off, lock, semaphore or "
            + "actor hop"
    }
}
