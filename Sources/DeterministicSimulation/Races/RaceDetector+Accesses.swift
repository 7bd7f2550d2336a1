extension RaceDetector {
    /// One access as a location remembers it: the step it was made at, and its description.
    struct Access {
        var component: UInt32
        var clock: UInt32
        var description: SharedAccess
        /// Where app code made a plain access (a return address; 0 for a named one).
        var site: UInt = 0
    }

    /// What a shared location remembers (FastTrack, Flanagan and Freund, PLDI 2009): its last
    /// write, and the reads since that write that no later read is known to follow (at most one
    /// per component, since one component's steps are ordered).
    struct Location {
        /// The state's name; empty for a plain location, named from its accesses' sites when
        /// it races (``PlainAccessNames``).
        var name: String
        var lastWrite: Access?
        var reads: [Access] = []
    }

    /// Identifies a kept race: the location and the two threads, in either order, so a pair of
    /// threads racing again on that state (a read and a write, then a write and a write, in
    /// either order: one unguarded variable, one fix) is reported once.
    struct RaceKey: Hashable {
        var location: UInt
        var threads: [String]

        init(location: UInt, _ one: String, _ other: String) {
            self.location = location
            threads = one <= other ? [one, other] : [other, one]
        }
    }

    /// The most races kept per run (a racy loop finds the same pair again and again).
    static let raceLimit = 64

    /// Checks an access of context `index` against `location`'s history and records it: a race
    /// when an earlier access is not in the context's past and one of the two writes.
    /// `site` is where app code made a plain access (0 for a named one: `name` names it).
    func record(
        _ kind: SharedAccessKind, to location: UInt, name: String, site: UInt = 0, in index: Int,
        describe: (SharedAccessKind) -> SharedAccess
    ) {
        startTracking()
        let step = currentStep(of: index)
        let count = locations.count
        // In place: one lookup, and the location's reads are not copied.
        check(kind, at: step, in: index, site: site, against: &locations[location, default: Location(name: name)],
              location, describe)
        if locations.count != count { noteNewLocation(location, plain: site != 0) }
    }

    private func check(
        _ kind: SharedAccessKind, at step: (component: UInt32, clock: UInt32), in index: Int, site: UInt,
        against state: inout Location, _ location: UInt, _ describe: (SharedAccessKind) -> SharedAccess
    ) {
        var access: Access?
        func made() -> Access {
            if let access { return access }
            let new = Access(component: step.component, clock: step.clock, description: describe(kind), site: site)
            access = new
            return new
        }
        if let write = state.lastWrite, !isOrdered(write, before: index) {
            report(first: write, second: made(), at: location, name: state.name)
        }
        if kind == .write {
            for read in state.reads where !isOrdered(read, before: index) {
                report(first: read, second: made(), at: location, name: state.name)
            }
            state.lastWrite = made()
            state.reads.removeAll(keepingCapacity: true)
        } else {
            // Reads in this one's past are covered by it: a later write ordered after this read
            // is ordered after them, and one that is not is reported against this read.
            state.reads.removeAll { isOrdered($0, before: index) }
            state.reads.append(made())
        }
    }

    /// Whether `access` happens before context `index`'s present (read in place: a copy of the
    /// clock is a retain and a release).
    private func isOrdered(_ access: Access, before index: Int) -> Bool {
        contexts[index].clock.covers(component: access.component, clock: access.clock)
    }

    /// Forgets a location (its object is gone, so its identifier may be reused).
    func forget(_ location: UInt) {
        locations[location] = nil
        // A new location at the same address is new state: its races are its own. Without this,
        // whether a race was reported depended on the allocator reusing an address, and runs
        // did not replay.
        reportedKeys[location] = nil
        plainTable?.setLocationCounts(all: locations.count, plain: plainLocationCount)
    }

    /// Forgets the plain locations and the synchronisation objects (a lock, an actor) in `size`
    /// bytes at `address` (a freed object or box): new state at that address starts afresh, so
    /// whether a race is found never depends on the allocator reusing an address.
    func forget(plainBytes size: Int, at address: UInt) {
        guard size > 0, !plainBuckets.isEmpty || !plainSyncBuckets.isEmpty else { return }
        let end = address &+ UInt(size)
        var bucket = address >> Self.bucketShift
        while bucket <= (end &- 1) >> Self.bucketShift {
            if let addresses = plainBuckets[bucket] {
                let kept = addresses.filter { $0 < address || $0 >= end }
                plainLocationCount -= addresses.count - kept.count
                plainBuckets[bucket] = kept.isEmpty ? nil : kept
                for gone in addresses where gone >= address && gone < end { forget(gone) }
            }
            if let objects = plainSyncBuckets[bucket] {
                let kept = objects.filter { $0 < address || $0 >= end }
                plainSyncBuckets[bucket] = kept.isEmpty ? nil : kept
                for gone in objects where gone >= address && gone < end {
                    plainSyncClocks[gone] = nil
                    runTasks.remove(gone)  // a task's memory, since reused by this object: the task is gone
                }
            }
            bucket += 1
        }
    }

    /// A mutex, semaphore or group was made at `object`: what an earlier one at that address
    /// released is not its. The memory of a lock inside a library's object (an `NSLock`, a
    /// `JSONEncoder`'s options lock) is freed where the shim does not see it, and the allocator
    /// often gives the next such lock the same address: inherited, the old lock's releases would
    /// order the new lock's takers, and a race would be hidden or not depending on the process's
    /// allocation history. A task whose memory this is has ended.
    func newSyncObject(_ object: UInt) {
        runTasks.remove(object)
        guard plainSyncClocks.removeValue(forKey: object) != nil else { return }
        let bucket = object >> Self.bucketShift
        let kept = plainSyncBuckets[bucket]?.filter { $0 != object } ?? []
        plainSyncBuckets[bucket] = kept.isEmpty ? nil : kept
    }

    /// A synchronisation object gets its first clock: bucketed, so that its free forgets it.
    private func keepSyncObject(_ object: UInt) {
        plainSyncBuckets[object >> Self.bucketShift, default: []].append(object)
        plainTable?.markKept(object)
    }

    /// Plain locations by address, bucketed by 16 bytes (Swift objects' alignment), so a free
    /// finds the ones inside the freed object without a search.
    static let bucketShift: UInt = 4

    /// A location was added: the shim's count follows, and a plain one is bucketed.
    private func noteNewLocation(_ location: UInt, plain: Bool) {
        if plain {
            plainBuckets[location >> Self.bucketShift, default: []].append(location)
            plainLocationCount += 1
            plainTable?.markKept(location)
        }
        plainTable?.setLocationCounts(all: locations.count, plain: plainLocationCount)
    }

    /// Context `index` took the real lock, semaphore or group at `object`: it comes after every
    /// release of it so far.
    func acquirePlain(_ object: UInt, into index: Int) {
        guard isTracking, let clock = plainSyncClocks[object] else { return }
        acquire(clock, into: index)
    }

    /// Context `index` released, signalled or left the real object at `object`.
    func releasePlain(_ object: UInt, from index: Int) {
        guard isTracking else { return }
        if plainSyncClocks[object] == nil { keepSyncObject(object) }
        release(from: index, into: &plainSyncClocks[object, default: VectorClock()])
    }

    /// A task new to the run, at `task`, was first scheduled by context `index`: the concurrency
    /// runtime's marks on that address are now this task's (``runtimeMark(_:release:in:)``), and
    /// what a task freed earlier at the same address released is forgotten (the runtime frees
    /// tasks itself, unseen): the new task starts from its creator's present.
    func taskScheduled(_ task: UInt, from index: Int) {
        // The runtime marks edges anywhere, also while this set grows (a type's metadata made on
        // first use takes a lock): such a mark reads the set, so it is not inside an insert.
        var tasks = runTasks
        runTasks = []
        tasks.insert(task)
        runTasks = tasks
        guard isTracking else { return }
        if plainSyncClocks[task] == nil { keepSyncObject(task) }
        plainSyncClocks[task] = send(from: index)
    }

    /// One of the concurrency runtime's happens-before marks at `address`, made by context
    /// `index`: an edge when the address is one of the run's tasks (a job enqueued and run, a
    /// continuation resumed, a task completed and its value awaited, a group's child taken).
    /// Marks on the runtime's own locks and caches are dropped: which of those a run takes
    /// depends on what the process did before it (a type's metadata made by an earlier run), so
    /// as edges they would make a race found in one process and missed in another.
    func runtimeMark(_ address: UInt, release: Bool, in index: Int) {
        guard isTracking, runTasks.contains(address) else { return }
        if release { releasePlain(address, from: index) } else { acquirePlain(address, into: index) }
    }

    /// A plain access of a task, made in context `index` on `actor` (0: none): the task's own
    /// steps are ordered, wherever each runs (its jobs may run on different threads with no
    /// hand-off the engine sees), and so are the turns of an actor, which Swift takes one at a
    /// time. Called before the access is checked (`release` false) and after (true). A task
    /// that is not the run's is not one: the test's own, which a thread running the run without
    /// a task job of its own still names as current.
    func taskAccess(task: UInt, actor: UInt, release: Bool, in index: Int) {
        guard runTasks.contains(task) else { return }
        if release {
            releasePlain(task, from: index)
            if actor != 0 { releasePlain(actor, from: index) }
        } else {
            acquirePlain(task, into: index)
            if actor != 0 { acquirePlain(actor, into: index) }
        }
    }

    private func report(first: Access, second: Access, at location: UInt, name: String) {
        guard races.count < Self.raceLimit else { return }
        let key = RaceKey(location: location, first.description.thread, second.description.thread)
        guard reportedKeys[location, default: []].insert(key).inserted else { return }
        // A plain location's accesses all have a site (a return address is never 0).
        let race = first.site != 0
            ? PlainAccessNames.race(first: first, second: second, at: location)
            : DataRace(location: name, first: first.description, second: second.description)
        races.append(race)
        onRace?(race)
    }
}
