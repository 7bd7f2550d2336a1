/// Data-race detection: happens-before over the run's jobs (``RaceDetector``) and the shared
/// accesses checked against it.
extension Scheduler {
    /// Turns data-race detection on for this run: from now on the engine tracks which steps
    /// happen before which, and ``recordSharedAccess(_:to:name:)`` reports two accesses to the
    /// same state that nothing orders, at least one a write, in ``dataRaces``; so do the plain
    /// accesses of app code unless `checkingPlainAccesses` is false (``checksPlainAccesses``).
    ///
    /// ```swift
    /// let scheduler = Scheduler(choices: ChoiceSource(seed: runSeed))
    /// scheduler.enableRaceDetection()
    /// let workers = scheduler.makeQueue(label: "workers", kind: .concurrent(width: 2))
    /// ```
    ///
    /// Contract: call before the first job is enqueued (a job enqueued before is taken to start
    /// from nothing, as if enqueued by code that did nothing yet) and before the run's threads
    /// are marked; calling it again does nothing.
    /// It changes no decision and no draw: the same seed runs the same way with it on or off.
    /// Off (the default), every hook costs one `nil` check.
    /// - Complexity: per enqueue and per job, O(k) for the `k` components in the job's past (one
    ///   per serial queue, plus the concurrent jobs not yet ordered before it).
    public func enableRaceDetection(checkingPlainAccesses: Bool = true) {
        guard raceDetector == nil else { return }
        let detector = RaceDetector()
        raceDetector = detector
        if checkingPlainAccesses { enablePlainAccesses(for: detector) }
    }

    /// Whether ``enableRaceDetection(checkingPlainAccesses:)`` was called.
    public var detectsRaces: Bool { raceDetector != nil }

    /// Called with each data race as it is found, inside the job that made the second access
    /// (for a trace event at that point).
    ///
    /// ```swift
    /// scheduler.onDataRace = { race in trace.record(.dataRace(race.description)) }
    /// ```
    public var onDataRace: ((DataRace) -> Void)? {
        get { raceDetector?.onRace }
        set { raceDetector?.onRace = newValue }
    }

    /// The data races found so far, in the order found: the first per location and pair of
    /// threads (in either order, whatever the access kinds), at most 64. Empty while detection
    /// is off.
    ///
    /// ```swift
    /// #expect(scheduler.dataRaces.isEmpty, "\(scheduler.dataRaces)")
    /// ```
    public var dataRaces: [DataRace] { raceDetector?.races ?? [] }

    /// Called with each shared access (its kind and the state's name) while detection is on,
    /// after the access's scheduling point and before it is checked, inside the job that makes
    /// it: a trace event there shows the access, then any race it completes (``onDataRace``).
    ///
    /// ```swift
    /// scheduler.onSharedAccess = { kind, name in trace.record(.access(name, kind)) }
    /// ```
    public var onSharedAccess: ((SharedAccessKind, String) -> Void)? {
        get { raceDetector?.onAccess }
        set { raceDetector?.onAccess = newValue }
    }

    /// Records a read or write of shared state by the running code: a scheduling point, then,
    /// with detection on, a check against the state's earlier accesses.
    ///
    /// ```swift
    /// final class Flag { var isSet = false }
    /// let didComplete = Flag()
    /// scheduler.async(on: workers) {
    ///     scheduler.recordSharedAccess(.write, to: ObjectIdentifier(didComplete), name: "didComplete")
    ///     didComplete.isSet = true
    /// }
    /// ```
    ///
    /// Contract: the access is recorded after the point (where another thread may run first), so
    /// call it just before the access it stands for. A race is reported when an earlier access to
    /// `location` is not ordered before this one by any enqueue, serial queue, `sync`, lock,
    /// semaphore or timer edge and one of the two is a write, whatever order the run made them in.
    /// `location` names the state by its object's identity: the object must outlive its accesses,
    /// or call ``forgetSharedLocation(_:)`` when it goes (an identifier may be reused).
    /// `name` is kept from the first access. Outside every job the access is the driver's.
    /// - Complexity: O(log k + r) for `k` components in the caller's past and `r` reads of
    ///   `location` since its last write, unordered with each other.
    public func recordSharedAccess(_ kind: SharedAccessKind, to location: ObjectIdentifier, name: String) {
        schedulingPoint()
        guard let races else { return }
        races.call { $0.onAccess?(kind, name) }
        let index = raceContext
        // With plain checks on, a free inside the record (a description's strings) must not
        // reach the detector while it changes `locations` (``withShimQuiet(_:)``).
        if plainAccesses != nil {
            Self.withShimQuiet { record(kind, to: location, name: name, in: index, on: races) }
        } else {
            record(kind, to: location, name: name, in: index, on: races)
        }
    }

    /// ``recordSharedAccess(_:to:name:)``'s check and record, in context `index`.
    private func record(_ kind: SharedAccessKind, to location: ObjectIdentifier, name: String, in index: Int,
                        on races: Unretained<RaceDetector>) {
        races.call { races in
            races.record(kind, to: UInt(bitPattern: location), name: name, in: index) { kind in
                SharedAccess(
                    kind: kind, thread: races.place(runningPlace ?? "driver", in: index),
                    job: index == 0 ? nil : JobID(rawValue: races.contexts[index].job), time: clock.now)
            }
        }
    }

    /// Forgets a shared location whose object is going away, so a new object at the same address
    /// starts with no history.
    ///
    /// ```swift
    /// deinit { scheduler.forgetSharedLocation(ObjectIdentifier(self)) }
    /// ```
    public func forgetSharedLocation(_ location: ObjectIdentifier) {
        guard let races else { return }
        Self.withShimQuiet { races.call { $0.forget(UInt(bitPattern: location)) } }
    }

    /// The race detector's context of the running code: 0 for the driver, the simulated thread's
    /// id + 1 with controlled concurrency, else 1 for the running job.
    var raceContext: Int {
        if let threadsCall { return threadsCall.call { $0.currentID.map { $0 + 1 } ?? 0 } }
        return core.isRunningJob ? 1 : 0
    }

    /// A job starts in context `index`: the detector's hook, called beside ``reportJobStart()``.
    @inline(__always)
    func noteJobStartForRaces(in index: Int) {
        guard let races else { return }
        let taken = core.taken
        let serial = isSerial(taken.queue)
        races.call { $0.jobStarted(taken.job.number, slot: taken.job.slot, queue: taken.queue, isSerial: serial, in: index) }
    }

    /// The job in context `index` ends, before ``SchedulerCore/finish()``.
    @inline(__always)
    func noteJobEndForRaces(in index: Int) {
        guard let races else { return }
        let taken = core.taken
        let repeats = taken.interval != 0 && !core.jobs.isFinished(taken.job.number)
        let serial = isSerial(taken.queue)
        races.call { $0.jobEnded(in: index, isSerial: serial, repeats: repeats) }
    }

    /// Whether the queue at `index` was made serial. Not its width: a concurrent queue of width 1
    /// runs one job at a time here, but promises no order, so its jobs stay unordered.
    private func isSerial(_ index: Int) -> Bool {
        if case .serial = core.queues[index].kind { return true }
        return false
    }
}
