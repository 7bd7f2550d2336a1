extension RaceDetector {
    /// One access as a location remembers it: the step it was made at, and its description.
    struct Access {
        var component: UInt32
        var clock: UInt32
        var description: SharedAccess
    }

    /// What a shared location remembers (FastTrack, Flanagan and Freund, PLDI 2009): its last
    /// write, and the reads since that write that no later read is known to follow (at most one
    /// per component, since one component's steps are ordered).
    struct Location {
        var name: String
        var lastWrite: Access?
        var reads: [Access] = []
    }

    /// Identifies a kept race: the location and the two threads, in either order, so a pair of
    /// threads racing again on that state (a read and a write, then a write and a write, in
    /// either order: one unguarded variable, one fix) is reported once.
    struct RaceKey: Hashable {
        var location: ObjectIdentifier
        var threads: [String]

        init(location: ObjectIdentifier, _ one: String, _ other: String) {
            self.location = location
            threads = one <= other ? [one, other] : [other, one]
        }
    }

    /// The most races kept per run (a racy loop finds the same pair again and again).
    static let raceLimit = 64

    /// Checks an access of context `index` against `location`'s history and records it: a race
    /// when an earlier access is not in the context's past and one of the two writes.
    func record(
        _ kind: SharedAccessKind, to location: ObjectIdentifier, name: String, in index: Int,
        describe: (SharedAccessKind) -> SharedAccess
    ) {
        startTracking()
        let step = currentStep(of: index)
        // In place: one lookup, and the location's reads are not copied.
        check(kind, at: step, in: index, against: &locations[location, default: Location(name: name)], location,
              describe)
    }

    private func check(
        _ kind: SharedAccessKind, at step: (component: UInt32, clock: UInt32), in index: Int,
        against state: inout Location, _ location: ObjectIdentifier, _ describe: (SharedAccessKind) -> SharedAccess
    ) {
        var access: Access?
        func made() -> Access {
            if let access { return access }
            let new = Access(component: step.component, clock: step.clock, description: describe(kind))
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
    func forget(_ location: ObjectIdentifier) {
        locations[location] = nil
        // A new location at the same address is new state: its races are its own. Without this,
        // whether a race was reported depended on the allocator reusing an address, and runs
        // did not replay.
        reportedKeys[location] = nil
    }

    private func report(first: Access, second: Access, at location: ObjectIdentifier, name: String) {
        guard races.count < Self.raceLimit else { return }
        let key = RaceKey(location: location, first.description.thread, second.description.thread)
        guard reportedKeys[location, default: []].insert(key).inserted else { return }
        let race = DataRace(location: name, first: first.description, second: second.description)
        races.append(race)
        onRace?(race)
    }
}
