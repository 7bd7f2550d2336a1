import SimulationRuntime

/// Happens-before over a run's jobs, from every synchronisation the engine performs, and the
/// data races found by checking shared accesses against it (``RaceDetector+Accesses.swift``).
///
/// ```swift
/// scheduler.enableRaceDetection()
/// // the scheduler calls enqueued(_:from:), jobStarted(...), jobEnded(...), acquire/release ...
/// ```
///
/// The model (vector clocks, as ThreadSanitizer and Go's race detector use):
/// - A *context* is what runs code: the driver (index 0, code outside every job) or a job in
///   progress (index 1 without controlled concurrency; the simulated thread's id + 1 with it, so a
///   suspended job keeps its clock). Its clock says which steps of other contexts happen before
///   its present.
/// - A *component* is a chain of steps known to be totally ordered. Each serial queue has one
///   (its jobs run one after another: one job's end happens before the next one's start), and so
///   does the driver. A job of a concurrent queue continues a component of that queue whose last
///   job has ended and is already in its past; otherwise it gets a new one. So two jobs of a
///   concurrent queue are never put on one component merely because they ran one after another,
///   or on the same simulated thread: a component per thread would be unsound there.
/// - Edges: an enqueue (`async`, `asyncAfter`, `async(at:)`, timers, and so every task job and
///   main-actor hop, which are enqueued jobs) hands the enqueuer's clock to the job; a serial
///   queue hands each job's end to its next job; a repeating timer hands each fire's end to the
///   next fire; `sync` hands the caller's clock to the block (an enqueue, or the caller itself)
///   and the block's end back to the caller; an unlock hands the holder's clock to the next
///   `lock`; a `signal` hands the signaller's clock to the `wait` that takes its unit.
/// - Ticks are lazy: a context moves its component on only before its next access after it
///   handed its clock on, so enqueueing a batch of jobs copies the clock once.
///
/// - Tracking starts at the run's first shared access (``record(_:to:name:in:describe:)``):
///   until then the detector only notes which job each context runs. That is sound: every
///   happens-before path from one access to a later one runs through events after the first,
///   and those are all tracked. A context that was already running then gets an empty clock and
///   a component of its own when the detector first sees it again (``touch(_:)``), so two such
///   contexts are never taken for one chain. A run that shares no state (most workloads) pays
///   for no clock at all.
///
/// Only the baton holder touches it, like the scheduler; it exists only when detection is on
/// (``Scheduler/enableRaceDetection(checkingPlainAccesses:)``), so a run without it pays one `nil` check per hook.
/// Its state is unchecked for exclusivity for that reason: the dynamic checks were a third of
/// what detection cost (callgrind, receipt-upload).
final class RaceDetector {
    /// What one context knows: its clock, its component and where it runs.
    struct Context {
        var clock = VectorClock()
        var component: UInt32 = 0
        /// Whether it handed its clock on since its last tick: tick before the next access.
        var needsTick = true
        /// The job it runs (0 for the driver), that job's scheduler slot and its queue (-1 for the
        /// driver).
        var job: UInt64 = 0
        var slot: Int32 = 0
        var queue = -1
        /// Whether `clock` and `component` were set since tracking started (``touch(_:)``).
        var isTracked = false
        /// The `concurrentPerform` iteration it runs, or -1 (``RaceDetector+Iterations.swift``).
        var iteration = -1
    }

    /// Whether tracking has started: the run's first shared access was recorded.
    private(set) var isTracking = false
    /// Tracks from the start instead (the tests compare both ways).
    var tracksFromStart = false {
        didSet { if tracksFromStart { startTracking() } }
    }

    /// By context index: 0 the driver, then jobs in progress (see the type's summary).
    @exclusivity(unchecked) var contexts: [Context] = [Context()]
    /// The clock each pending job starts from, by the job's slot in the scheduler's job table (a
    /// repeating timer keeps its slot: its next fire's). A slot's entry is set when a job is
    /// enqueued in it and taken when the job starts; a cancelled job's stays until the slot's
    /// next job replaces it. An array, not a dictionary by job number: hashing each enqueue
    /// was a sixth of what detection cost.
    @exclusivity(unchecked) private var pending: [VectorClock] = []
    /// By queue index: the clock at the end of the queue's last job (serial queues only).
    @exclusivity(unchecked) private var queueEnds: [VectorClock] = []
    /// By queue index: a serial queue's component (0 until its first job).
    @exclusivity(unchecked) private var queueComponents: [UInt32] = []
    /// By queue index: a concurrent queue's components whose last job has ended, with the clock
    /// they ended at, oldest first.
    @exclusivity(unchecked) private var freeComponents: [[(component: UInt32, clock: UInt32)]] = []
    /// The `concurrentPerform` calls in progress, innermost last (``RaceDetector+Iterations.swift``).
    var iterationForks: [IterationFork] = []
    /// The next component to hand out (0 is the driver's).
    private var nextComponent: UInt32 = 1
    /// What every step from now on comes after: the run's past when a process last ended
    /// (``processEnded()``); empty before.
    private var lifeFloor = VectorClock()

    /// The shared locations seen and the races found (``RaceDetector+Accesses.swift``).
    /// By address: an object's identity for named state, a variable's address for plain state.
    @exclusivity(unchecked) var locations: [UInt: Location] = [:]
    /// The addresses of plain locations, by 16-byte bucket (``forget(plainBytes:at:)``).
    var plainBuckets: [UInt: [UInt]] = [:]
    /// How many addresses ``plainBuckets`` holds.
    var plainLocationCount = 0
    /// What each real lock, semaphore or group, each task and each actor released, by its
    /// address (``releasePlain(_:from:)``).
    var plainSyncClocks: [UInt: VectorClock] = [:]
    /// The addresses of ``plainSyncClocks``, by 16-byte bucket (``forget(plainBytes:at:)``).
    var plainSyncBuckets: [UInt: [UInt]] = [:]
    /// The addresses of the run's Swift tasks (``taskScheduled(_:from:)``).
    var runTasks: Set<UInt> = []  // tidy: allow membership checks only, never iterated
    /// The shim's view of this run (the location count), when it checks plain accesses.
    var plainTable: PlainAccessTable?
    @exclusivity(unchecked) var races: [DataRace] = []
    /// The location-and-threads keys of the races kept, so each is reported once, by location
    /// (``forget(_:)`` drops a location's).
    @exclusivity(unchecked) var reportedKeys: [UInt: Set<RaceKey>] = [:]  // tidy: allow membership checks only, never iterated
    /// Called with each race as it is found.
    var onRace: ((DataRace) -> Void)?
    /// Called with each shared access before it is checked.
    var onAccess: ((SharedAccessKind, String) -> Void)?

    /// Starts tracking (the run's first shared access): every context is taken as untracked,
    /// and nothing noted so far carries a clock.
    func startTracking() {
        guard !isTracking else { return }
        isTracking = true
        for index in contexts.indices { contexts[index].isTracked = false }
    }

    /// Makes sure context `index` exists and has a clock and a component since tracking started:
    /// a context running since before then starts from an empty clock, on a component of its own.
    @inline(__always)
    func touch(_ index: Int) {
        makeContext(index)
        guard !contexts[index].isTracked else { return }
        contexts[index].clock = lifeFloor
        contexts[index].component = takeNewComponent()
        contexts[index].needsTick = true
        contexts[index].isTracked = true
    }

    /// Makes sure context `index` exists (a simulated thread's first job, or its first step).
    @inline(__always)
    private func makeContext(_ index: Int) {
        if index >= contexts.count { contexts.append(contentsOf: repeatElement(Context(), count: index + 1 - contexts.count)) }
    }

    /// Hands context `index`'s clock on (an enqueue, an unlock, a signal, a job's end).
    @inline(__always)
    func send(from index: Int) -> VectorClock {
        touch(index)
        contexts[index].needsTick = true
        return contexts[index].clock
    }

    /// A job was enqueued in slot `slot` by context `index`: it starts from the enqueuer's
    /// present.
    func enqueued(slot: Int32, from index: Int) {
        guard isTracking else { return }
        setPending(send(from: index), slot: slot)
    }

    /// Every pending job was dropped (teardown): their clocks are released.
    func droppedAll() {
        pending.removeAll()
    }

    private func setPending(_ clock: VectorClock, slot: Int32) {
        let index = Int(slot)
        if index >= pending.count {
            pending.append(contentsOf: repeatElement(VectorClock(), count: index + 1 - pending.count))
        }
        pending[index] = clock
    }

    /// The clock of the job in `slot`, moved out (so the job's ticks do not copy it).
    private func takePending(slot: Int32) -> VectorClock {
        var clock = VectorClock()
        if Int(slot) < pending.count { swap(&clock, &pending[Int(slot)]) }
        return clock
    }

    /// Context `index` takes in `clock` (a `lock` that got its lock, a `wait` that got a unit).
    func acquire(_ clock: VectorClock, into index: Int) {
        guard isTracking else { return }
        touch(index)
        contexts[index].clock.join(clock)
    }

    /// Context `index` hands its clock to `target` (an unlock, a signal).
    func release(from index: Int, into target: inout VectorClock) {
        guard isTracking else { return }
        target.join(send(from: index))
    }

    /// A `sync` block ran in context `index`; the caller, the simulated thread `caller` blocked
    /// in `sync`, continues after all of it.
    func handBack(from index: Int, toThread caller: Int) {
        guard isTracking else { return }
        let clock = send(from: index)
        touch(caller + 1)
        contexts[caller + 1].clock.join(clock)
    }

    /// A `sync` block starts on its caller's thread (context `index`), holding the serial queue
    /// `queue`: it comes after the queue's last job.
    func syncOnCallerStarts(in index: Int, queue: Int) {
        guard isTracking else { return }
        touch(index)
        if queue < queueEnds.count { contexts[index].clock.join(queueEnds[queue]) }
    }

    /// That block ended: the queue's next job comes after it.
    func syncOnCallerEnded(in index: Int, queue: Int) {
        guard isTracking else { return }
        setQueueEnd(send(from: index), queue: queue)
    }

    /// A simulated process ended: every step made so far happens before whatever runs from now
    /// on. Two processes share no memory on a device, so what a later process touches that an
    /// earlier one did (an object of the test's, a `static` the simulation keeps for the whole
    /// run) is not a race: the first process's life ended before the second's began.
    func processEnded() {
        guard isTracking else { return }
        var past = lifeFloor
        for context in contexts where context.isTracked { past.join(context.clock) }
        for clock in queueEnds { past.join(clock) }
        for clock in pending { past.join(clock) }
        for components in freeComponents {
            for free in components { past.join(component: free.component, clock: free.clock) }
        }
        lifeFloor = past
        for index in contexts.indices where contexts[index].isTracked {
            contexts[index].clock.join(past)
            contexts[index].needsTick = true
        }
    }

    /// Job `job`, in scheduler slot `slot`, of queue `queue` starts in context `index`.
    func jobStarted(_ job: UInt64, slot: Int32, queue: Int, isSerial: Bool, in index: Int) {
        guard isTracking else {
            // Only which job runs here: what a later access names, and what its end needs.
            makeContext(index)
            contexts[index].job = job
            contexts[index].slot = slot
            contexts[index].queue = queue
            return
        }
        var clock = takePending(slot: slot)
        clock.join(lifeFloor)
        let component: UInt32
        if isSerial {
            if queue < queueEnds.count { clock.join(queueEnds[queue]) }
            component = serialComponent(of: queue)
        } else {
            component = concurrentComponent(of: queue, given: clock)
        }
        makeContext(index)
        contexts[index] = Context(
            clock: clock, component: component, needsTick: true, job: job, slot: slot, queue: queue, isTracked: true)
    }

    /// The job in context `index` ended; `repeats` when it is a repeating timer's fire whose
    /// timer goes on.
    func jobEnded(in index: Int, isSerial: Bool, repeats: Bool) {
        guard isTracking else { return }
        touch(index)
        var context = Context()
        swap(&context, &contexts[index])  // a move: the context's clock is not retained twice
        if isSerial {
            setQueueEnd(context.clock, queue: context.queue)
        } else {
            while freeComponents.count <= context.queue { freeComponents.append([]) }
            freeComponents[context.queue].append((context.component, context.clock.value(of: context.component)))
        }
        if repeats { setPending(context.clock, slot: context.slot) }
    }

    /// The component of a serial queue's jobs, made at its first job.
    private func serialComponent(of queue: Int) -> UInt32 {
        while queueComponents.count <= queue { queueComponents.append(0) }
        if queueComponents[queue] == 0 { queueComponents[queue] = takeNewComponent() }
        return queueComponents[queue]
    }

    /// A component for a job of a concurrent queue that starts from `clock`: the first free one of
    /// the queue whose last step is in `clock` (so the job really comes after it), else a new one.
    private func concurrentComponent(of queue: Int, given clock: VectorClock) -> UInt32 {
        if queue < freeComponents.count {
            var index = 0
            while index < freeComponents[queue].count {
                let free = freeComponents[queue][index]
                if clock.covers(component: free.component, clock: free.clock) {
                    freeComponents[queue].remove(at: index)
                    return free.component
                }
                index += 1
            }
        }
        return takeNewComponent()
    }

    func takeNewComponent() -> UInt32 {
        defer { nextComponent += 1 }
        return nextComponent
    }

    private func setQueueEnd(_ clock: VectorClock, queue: Int) {
        while queueEnds.count <= queue { queueEnds.append(VectorClock()) }
        queueEnds[queue] = clock
    }

    /// Ticks context `index` if it handed its clock on since its last tick, and returns its
    /// present step: (component, clock).
    func currentStep(of index: Int) -> (component: UInt32, clock: UInt32) {
        touch(index)
        if contexts[index].needsTick {
            contexts[index].clock.tick(contexts[index].component)
            contexts[index].needsTick = false
        }
        let component = contexts[index].component
        return (component, contexts[index].clock.value(of: component))
    }
}
