/// A heap entry: when a job is due, its sequence number, and where its closure is stored.
///
/// Plain data (no references), so heap moves never retain or release.
struct ScheduledJob {
    /// Due time in microseconds (never earlier than the clock when it was scheduled).
    var time: Int64
    /// The job's sequence number (its ``JobID``).
    var number: UInt64
    /// The job's slot in the ``JobTable``.
    var slot: Int32

    /// Whether `self` runs before `other`: earlier time, then smaller sequence number.
    @inline(__always)
    func precedes(_ other: ScheduledJob) -> Bool {
        time != other.time ? time < other.time : number < other.number
    }
}
