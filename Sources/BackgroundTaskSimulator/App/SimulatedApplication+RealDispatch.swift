import BackgroundTaskKit
import DeterministicSimulation
import SimulationRuntime

/// App code's own Dispatch calls, run on the process's simulated queues: `DispatchQueue.main`
/// is the main queue, the global queues are the process's global queue, and each queue the app
/// made (`DispatchQueue(label:)`) is a serial queue of the process, made on its first use and
/// frozen and thawed with the others (B1.1). So code written with GCD runs as written: its work
/// interleaves with the run's other threads, suspends with the app and dies with it.
///
/// ```swift
/// // app code, unchanged from the app:
/// let id = application.beginBackgroundTask(withName: "upload") { ... }
/// DispatchQueue.global().async {
///     upload()
///     DispatchQueue.main.async { application.endBackgroundTask(id) }
/// }
/// ```
///
/// Contract (the shim hands every call on a run's thread to ``SimulatedDevice``, which routes it
/// here for the live process):
/// - `async` and its barrier and group forms enqueue the work like ``WorkQueue/async(_:)``, with
///   the same scheduling points; a group is entered when the call is made and left after the
///   work ran, so `DispatchGroup.wait` and `notify` see it.
/// - `asyncAfter` runs the work at its deadline on the virtual clock (`DispatchTime.now()` reads
///   virtual time inside a run); a deadline of `.distantFuture` never comes.
/// - `sync` follows ``WorkQueue/sync(_:)`` (GCD's rules: on the caller's thread when the queue is
///   free, on the main thread for the main queue); on a serial queue its barrier form is the same.
/// - A group's `notify` sends its work to the queue once the group is empty.
/// - `dispatchPrecondition(condition: .onQueue(q))` holds on `q`'s simulated queue, in a job of
///   it or inside a `sync` onto it; `.notOnQueue(q)` elsewhere. One that fails stops the process
///   as Dispatch does (a crash, `no-crash`).
/// - A queue that targets a serial queue or the main queue runs its work there. A concurrent
///   queue the app made (`attributes: .concurrent`) runs up to four blocks at once, like the
///   global queue; a barrier block (`flags: .barrier`, async or sync) waits for the blocks before
///   it and runs alone, as GCD says (``ConcurrentDispatchQueue``). The concurrent queue
///   Foundation makes under an `OperationQueue` runs one block at a time (the shim's
///   `note_queue` says why) but orders none: its operations race as they may on a device.
/// - A `DispatchSourceTimer` fires on its queue at virtual deadlines (``SimulatedTimerSource``).
///   Any other Dispatch source (a file descriptor's, a data source) is not taken: the engine
///   reports its start as an escape (`no-async-escape`) and does not start it.
extension SimulatedApplication {
    /// The process's Dispatch state, made on first use.
    private var realDispatch: RealDispatchRoutes {
        if let made = madeRealDispatch { return made }
        let made = RealDispatchRoutes()
        madeRealDispatch = made
        return made
    }

    /// Routes one call (``SimulatedDevice`` chose this process): true when it took it.
    func route(_ call: RealDispatchCall) -> Bool {
        switch call.operation {
        case .groupLeft:
            // Any leave on a run's thread comes here; a process that sent no Dispatch work has
            // no notification waiting, and no state is made for it.
            if let group = call.group { madeRealDispatch?.groupLeft(group) }
            return true
        case .sourceStarted:
            return false  // its handler would run on a real thread: an escape, not started
        case .isMainThread:
            return false  // the engine answers it before asking the simulator
        case .queueMade:
            // A new queue at a freed one's address: it gets a simulated queue of its own.
            madeRealDispatch?.queues.removeValue(forKey: call.queue)
            return true
        case .timerSchedule, .timerEventHandler, .timerCancelHandler, .timerResume, .timerSuspend, .timerCancel,
             .timerIsCancelled:
            realDispatch.timer(call.source, queue: queue(for: call).underlying, clock: { [unowned self] in now }).handle(call)
            return true
        case .sync:
            let target = queue(for: call)
            let scheduler = scheduler
            let routes = realDispatch
            let run = {
                // On the caller's thread (a free queue) the block is on the queue all the same.
                let thread = scheduler.currentThreadID ?? -1
                routes.syncing.append((target.id, thread))
                if target.isMainQueue && scheduler.currentQueue != target.id {
                    // The main queue's block in place (teardown unwinds its caller, or no threads):
                    // as main, or its main-actor closure traps.
                    scheduler.runInPlaceOfMainThread { call.runNow() }
                } else {
                    call.runNow()
                }
                routes.syncing.removeLast()
            }
            switch target {
            case .plain(let queue): queue.sync(run)
            case .concurrent(let queue): queue.sync(barrier: call.isBarrier, run)
            }
            return true
        case .assertOnQueue(let expected):
            let target = queue(for: call)
            let thread = scheduler.currentThreadID ?? -1
            let isOn = scheduler.currentQueue == target.id || realDispatch.syncing.contains { $0 == (target.id, thread) }
            if isOn != expected { call.assertionFails() }
            return true
        case .async:
            let work = call.keep()
            queue(for: call).async(barrier: call.isBarrier) { work.run() }
            return true
        case .after(let deadline):
            guard let deadline else { return true }  // never: the shim keeps the block, never run
            let work = call.keep()
            let delay = max(0, deadline - now.microseconds)
            queue(for: call).asyncAfter(.microseconds(delay)) { work.run() }
            return true
        case .notify:
            guard let group = call.group else { return false }
            let work = call.keep()
            let target = queue(for: call)
            if RealDispatchCall.isGroupEmpty(group) {
                target.async(barrier: false) { work.run() }
            } else {
                realDispatch.waitForGroup(group, queue: target, work: work)
            }
            return true
        }
    }

    /// The simulated queue that runs the work of `call`'s queue.
    private func queue(for call: RealDispatchCall) -> RealDispatchQueue {
        switch call.queueKind {
        case .main: return .plain(mainQueueImpl)
        case .global: return .plain(backgroundQueueImpl)
        case .serial, .concurrent, .oneAtATime:
            let routes = realDispatch
            if let made = routes.queues[call.queue] { return made }
            routes.routedCount += 1
            let label = Self.withoutAddresses(call.label.isEmpty ? "dispatch" : call.label, number: routes.routedCount)
            let made: RealDispatchQueue = switch call.queueKind {
            case .concurrent:
                .concurrent(ConcurrentDispatchQueue(makeProcessQueue(label: label, kind: Self.concurrentQueueKind),
                                                    semaphores: scheduler))
            case .oneAtATime:
                .concurrent(ConcurrentDispatchQueue(makeProcessQueue(label: label, kind: .concurrent(width: 1)),
                                                    semaphores: scheduler))
            default: .plain(makeProcessSerialQueue(label: label))
            }
            routes.queues[call.queue] = made
            return made
        }
    }
}

extension SimulatedApplication {
    /// `label` without what differs from process to process: an object's address in it (`0x`
    /// and six or more hex digits; Foundation names the queue under an `OperationQueue`
    /// "NSOperationQueue 0x…", and apps label a queue with `\(self)`) becomes `#number`, the
    /// queue's place in the order the process first used its queues. The label names the
    /// simulated queue's threads in traces and reports, which must read the same in every rerun.
    ///
    /// ```swift
    /// SimulatedApplication.withoutAddresses("NSOperationQueue 0x00007f8278018a20", number: 3)  // "NSOperationQueue #3"
    /// ```
    static func withoutAddresses(_ label: String, number: Int) -> String {
        var result = ""
        var rest = Substring(label)
        while let start = rest.firstRange(of: "0x") {
            let digits = rest[start.upperBound...].prefix { $0.isHexDigit }
            result += rest[..<start.lowerBound]
            result += digits.count >= 6 ? "#\(number)" : rest[start.lowerBound..<digits.endIndex]
            rest = rest[digits.endIndex...]
        }
        return result + rest
    }
}

/// The simulated queue behind one Dispatch queue: a plain one (main, global, serial), or a
/// concurrent one with GCD's barriers.
enum RealDispatchQueue {
    case plain(SimulatedWorkQueue)
    case concurrent(ConcurrentDispatchQueue)

    /// The scheduler's queue.
    var underlying: SimulatedWorkQueue {
        switch self {
        case .plain(let queue): queue
        case .concurrent(let queue): queue.queue
        }
    }

    var id: QueueID { underlying.id }
    /// Whether this is the process's main queue.
    var isMainQueue: Bool { underlying.isMainQueue }

    func async(barrier: Bool, _ work: @escaping @Sendable () -> Void) {
        switch self {
        case .plain(let queue): queue.async(work)  // a barrier on a serial or global queue is a plain async
        case .concurrent(let queue): queue.async(barrier: barrier, work)
        }
    }

    func asyncAfter(_ delay: Duration, _ work: @escaping @Sendable () -> Void) {
        switch self {
        case .plain(let queue): queue.asyncAfter(delay, work)
        case .concurrent(let queue): queue.queue.asyncAfter(delay) { queue.async(barrier: false, work) }
        }
    }
}

/// A concurrent `DispatchQueue` the app made, on a concurrent simulated queue of its process:
/// its blocks run at once up to the queue's width, except that a barrier block waits for every
/// block sent before it to finish and runs alone, and blocks sent after it wait for it (GCD's
/// `dispatch_barrier_async`). A `sync` runs on the caller's thread when nothing holds it back.
///
/// For the data-race detector the barriers order the blocks as they do on a device: a barrier
/// block is ordered after every block that finished before it, and every block after the
/// barriers that finished before it (`blocksFinished`, `barriersFinished`). So the reader-writer
/// cache (reads in `sync`, writes in `async(flags: .barrier)`) is not a race, and the same cache
/// with plain `async` writes is.
///
/// Contract: a run touches it from one thread at a time; blocks are released to the simulated
/// queue in the order they were sent.
final class ConcurrentDispatchQueue: @unchecked Sendable {
    // @unchecked: a run is confined to one thread at a time (the baton orders the accesses).
    let queue: SimulatedWorkQueue
    private let semaphores: Scheduler
    /// Blocks released and not finished.
    private var running = 0
    private var barrierRunning = false
    /// Blocks held back (behind a barrier, or barriers behind running blocks), in order.
    private var waiting: [(barrier: Bool, release: () -> Void)] = []
    /// Every finished block's past, and every finished barrier's.
    private let blocksFinished = HappensBeforePoint(), barriersFinished = HappensBeforePoint()

    init(_ queue: SimulatedWorkQueue, semaphores: Scheduler) {
        self.queue = queue
        self.semaphores = semaphores
    }

    func async(barrier: Bool, _ work: @escaping @Sendable () -> Void) {
        let release = { [self] in
            queue.async { [self] in
                blockStarts(barrier: barrier)
                work()
                finished(barrier: barrier)
            }
        }
        if waiting.isEmpty, canStart(barrier: barrier) {
            start(barrier: barrier)
            release()
        } else {
            waiting.append((barrier, release))
        }
    }

    /// Runs `work` on the caller's thread once the queue lets it (a barrier alone), blocking only
    /// the calling simulated thread meanwhile.
    func sync(barrier: Bool, _ work: () -> Void) {
        // One thread: nothing else runs meanwhile, so nothing can be in the way (nor wait).
        guard semaphores.hasControlledConcurrency else { return work() }
        if !(waiting.isEmpty && canStart(barrier: barrier)) {
            let turn = semaphores.makeSemaphore(name: "sync on \(queue.label)", value: 0)
            waiting.append((barrier, { turn.signal() }))
            // The run is being torn down: the block runs in place, as a plain queue's `sync` does
            // then (Swift's `sync` returning a value force-unwraps what the block set).
            guard turn.wait() else { return work() }
        } else {
            start(barrier: barrier)
        }
        blockStarts(barrier: barrier)
        work()
        finished(barrier: barrier)
    }

    /// A block starts: a barrier after every block that finished, any other after the barriers.
    private func blockStarts(barrier: Bool) {
        (barrier ? blocksFinished : barriersFinished).acquire(in: semaphores)
    }

    private func canStart(barrier: Bool) -> Bool {
        barrier ? running == 0 : !barrierRunning
    }

    private func start(barrier: Bool) {
        running += 1
        if barrier { barrierRunning = true }
    }

    private func finished(barrier: Bool) {
        blocksFinished.release(in: semaphores)
        if barrier { barriersFinished.release(in: semaphores) }
        running -= 1
        if barrier { barrierRunning = false }
        while let next = waiting.first, canStart(barrier: next.barrier) {
            waiting.removeFirst()
            start(barrier: next.barrier)
            next.release()
        }
    }
}

/// A process's state for real Dispatch calls: the simulated queue of each Dispatch queue the
/// app used, and the `notify` work waiting for a group to empty.
///
/// Contract: a run touches it from one thread at a time; ``removeAll()`` at the process's
/// teardown lets go of the work (and what its blocks captured).
final class RealDispatchRoutes: @unchecked Sendable {
    // @unchecked: a run is confined to one thread at a time (the baton orders the accesses).
    /// Dispatch's queue (its address) to the process's simulated queue for it.
    var queues: [UInt: RealDispatchQueue] = [:]
    /// The simulated queues made so far (numbers them in labels that held an address).
    var routedCount = 0
    /// The `sync` blocks running now, innermost last: the simulated queue and the thread that runs
    /// the block (-1 without threads), for `dispatchPrecondition`.
    var syncing: [(queue: QueueID, thread: Int)] = []
    /// Per group (its address), the notifications waiting for it to empty, in the order made.
    private var waiting: [UInt: [(queue: RealDispatchQueue, work: RealDispatchWork)]] = [:]

    func waitForGroup(_ group: UInt, queue: RealDispatchQueue, work: RealDispatchWork) {
        waiting[group, default: []].append((queue, work))
    }

    /// After a `leave` of `group`: sends its notifications once it is empty.
    func groupLeft(_ group: UInt) {
        guard waiting[group] != nil, RealDispatchCall.isGroupEmpty(group),
              let due = waiting.removeValue(forKey: group) else { return }
        for (queue, work) in due { queue.async(barrier: false) { work.run() } }
    }

    /// The simulated timer of the timer source at `source` (its address), made on first use
    /// with `queue`, its target's simulated queue.
    func timer(_ source: UInt, queue: SimulatedWorkQueue, clock: @escaping () -> VirtualTime) -> SimulatedTimerSource {
        if let timer = timers[source] { return timer }
        let timer = SimulatedTimerSource(queue: queue, clock: clock)
        timers[source] = timer
        return timer
    }

    /// Per timer source made in the process (its address), its simulated timer.
    private var timers: [UInt: SimulatedTimerSource] = [:]

    func removeAll() {
        let released = (queues, waiting, timers)
        queues = [:]
        waiting = [:]
        timers = [:]
        withExtendedLifetime(released) {}
    }
}

/// A `DispatchSourceTimer` the app made in a run, simulated on its target queue: it fires its
/// event handler at the virtual deadlines `schedule(deadline:repeating:)` set, once or every
/// interval, while it is resumed; `suspend()` holds the fires back until the matching
/// `resume()`; `cancel()` stops it and sends its cancel handler to the queue (GCD's contract).
/// A fire that comes while the queue is frozen (the app suspended) runs when it thaws, and a
/// repeating timer's next fire is then an interval after it ran: fires are not made up for.
///
/// Contract: a run touches it from one thread at a time; it fires only on its queue.
final class SimulatedTimerSource: @unchecked Sendable {
    // @unchecked: a run is confined to one thread at a time (the baton orders the accesses).
    private let queue: SimulatedWorkQueue
    /// The run's virtual time.
    private let clock: () -> VirtualTime
    private var eventHandler: RealDispatchWork?
    private var cancelHandler: RealDispatchWork?
    private var deadline: Int64?
    private var interval: Int64?
    /// A source starts inactive; the first `resume` or `activate` starts it.
    private var suspensions = 1
    private var isCancelled = false
    /// Raised at every change of schedule: a fire sent before it is stale.
    private var generation = 0

    init(queue: SimulatedWorkQueue, clock: @escaping () -> VirtualTime) {
        self.queue = queue
        self.clock = clock
    }

    func handle(_ call: RealDispatchCall) {
        switch call.operation {
        case .timerSchedule(let first, let every):
            deadline = first
            interval = every.flatMap { $0 > 0 ? $0 : nil }  // an interval of 0 repeats nothing
            arm()
        case .timerEventHandler:
            eventHandler = call.hasWork ? call.keep() : nil
        case .timerCancelHandler:
            cancelHandler = call.hasWork ? call.keep() : nil
        case .timerResume:
            if suspensions > 0 { suspensions -= 1 }
            arm()
        case .timerSuspend:
            suspensions += 1
            generation += 1
        case .timerCancel:
            guard !isCancelled else { return }
            isCancelled = true
            generation += 1
            if let handler = cancelHandler { queue.async { handler.run() } }
            cancelHandler = nil
        case .timerIsCancelled:
            call.answer(isCancelled ? 1 : 0)
        default:
            break
        }
    }

    /// Sends the next fire to the queue, when the timer is running and has a deadline.
    private func arm() {
        generation += 1
        guard suspensions == 0, !isCancelled, let deadline else { return }
        let armed = generation
        queue.asyncAfter(.microseconds(max(0, deadline - clock().microseconds))) { [self] in fire(armed) }
    }

    private func fire(_ armed: Int) {
        guard armed == generation, suspensions == 0, !isCancelled, let deadline else { return }
        // The next deadline: the first of start + k x interval after now (late fires are merged).
        if let interval {
            let now = clock().microseconds
            self.deadline = deadline + interval * max(1, (now - deadline) / interval + 1)
        } else {
            self.deadline = nil
        }
        eventHandler?.run()
        arm()
    }
}
