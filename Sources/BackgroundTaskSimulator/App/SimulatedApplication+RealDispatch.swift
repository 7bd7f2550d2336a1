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
/// - `DispatchQueue.getSpecific(key:)` reads the key from the Dispatch queue whose block runs on
///   the calling thread (a job sent to it, or a `sync` onto it; on the main thread outside any,
///   the main queue), then from the queues it targets (the shim walks them); none elsewhere.
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
        let made = RealDispatchRoutes(scheduler: scheduler)
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
        case .currentQueue:
            // The innermost Dispatch block on this thread; else the main thread drains the main
            // queue (launch, lifecycle callbacks, main-actor code), and no other thread drains one.
            if let origin = madeRealDispatch?.innermostBlockOrigin {
                call.answer(Int64(bitPattern: UInt64(origin)))
            } else {
                call.answer(scheduler.currentQueue == mainQueueImpl.id ? -1 : 0)
            }
            return true
        case .timerReleased:
            // Only a timer this process made and still simulates; never made anew here (the
            // release may come from inside the engine, dropping work that held the timer).
            guard core.isAlive, let timer = madeRealDispatch?.existingTimer(call.source) else { return false }
            timer.handle(call)
            return true
        case .timerSchedule, .timerEventHandler, .timerCancelHandler, .timerResume, .timerActivate, .timerSuspend, .timerCancel,
             .timerIsCancelled:
            realDispatch.timer(call.source, queue: queue(for: call), clock: { [unowned self] in now }).handle(call)
            return true
        case .sync:
            let target = queue(for: call)
            let scheduler = scheduler
            let routes = realDispatch
            let run = {
                // On the caller's thread (a free queue) the block is on the queue all the same.
                routes.runsBlock(of: target.id, origin: call.origin) {
                    if target.isMainQueue && scheduler.currentQueue != target.id {
                        // The main queue's block in place (teardown unwinds its caller, or no
                        // threads): as main, or its main-actor closure traps.
                        scheduler.runInPlaceOfMainThread { call.runNow() }
                    } else {
                        call.runNow()
                    }
                }
            }
            switch target {
            case .plain(let queue): queue.sync(run)
            case .concurrent(let queue): queue.sync(barrier: call.isBarrier, run)
            }
            return true
        case .assertOnQueue(let expected):
            let target = queue(for: call)
            let isOn = scheduler.currentQueue == target.id || realDispatch.isRunningBlock(of: target.id)
            if isOn != expected { call.violatesContract() }
            return true
        case .async:
            let work = call.keep(abandonsIfNeverRun: scheduler.usedSwiftConcurrency)
            let target = queue(for: call), routes = realDispatch
            if call.queueKind == .oneAtATime { routes.keepUntilProcessEnds(work) }
            target.async(barrier: call.isBarrier) { routes.run(work, on: target) }
            return true
        case .after(let deadline):
            guard let deadline else { return true }  // never: the shim keeps the block, never run
            let work = call.keep(abandonsIfNeverRun: scheduler.usedSwiftConcurrency)
            let delay = max(0, deadline - now.microseconds)
            let target = queue(for: call), routes = realDispatch
            target.asyncAfter(.microseconds(delay)) { routes.run(work, on: target) }
            return true
        case .notify:
            guard let group = call.group else { return false }
            let work = call.keep(abandonsIfNeverRun: scheduler.usedSwiftConcurrency)
            let target = queue(for: call), routes = realDispatch
            if RealDispatchCall.isGroupEmpty(group) {
                target.async(barrier: false) { routes.run(work, on: target) }
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
    /// Per thread (-1 without threads), the Dispatch blocks running on it, innermost last: a
    /// routed job's or a `sync` block's simulated queue and the Dispatch queue called (its
    /// address), for `dispatchPrecondition` and `DispatchQueue.getSpecific`.
    private var blocks: [Int: [(queue: QueueID, origin: UInt)]] = [:]
    private unowned let scheduler: Scheduler

    init(scheduler: Scheduler) {
        self.scheduler = scheduler
    }

    /// Runs `body` on the calling thread as a block of `queue`, sent to the Dispatch queue at
    /// `origin`.
    func runsBlock(of queue: QueueID, origin: UInt, _ body: () -> Void) {
        let thread = scheduler.currentThreadID ?? -1
        blocks[thread, default: []].append((queue, origin))
        body()
        // Only this thread's entries: another thread's blocks may have started and ended meanwhile.
        if blocks[thread]?.count == 1 { blocks[thread] = nil } else { blocks[thread]?.removeLast() }
    }

    /// Runs kept work, sent to `queue`, as its block.
    func run(_ work: RealDispatchWork, on queue: RealDispatchQueue) {
        runsBlock(of: queue.id, origin: work.origin) { work.run() }
    }

    /// Whether the calling thread runs a block of `queue` (inside it, a `sync` onto another).
    func isRunningBlock(of queue: QueueID) -> Bool {
        blocks[scheduler.currentThreadID ?? -1]?.contains { $0.queue == queue } ?? false
    }

    /// The Dispatch queue (its address) of the innermost block on the calling thread, if any.
    var innermostBlockOrigin: UInt? { blocks[scheduler.currentThreadID ?? -1]?.last?.origin }
    /// The blocks Foundation sent to the queue under an `OperationQueue`, kept until the process
    /// ends (``keepUntilProcessEnds(_:)``).
    private var operationBlocks: [RealDispatchWork] = []
    /// Per group (its address), the notifications waiting for it to empty, in the order made.
    private var waiting: [UInt: [(queue: RealDispatchQueue, work: RealDispatchWork)]] = [:]

    func waitForGroup(_ group: UInt, queue: RealDispatchQueue, work: RealDispatchWork) {
        waiting[group, default: []].append((queue, work))
    }

    /// After a `leave` of `group`: sends its notifications once it is empty.
    func groupLeft(_ group: UInt) {
        guard waiting[group] != nil, RealDispatchCall.isGroupEmpty(group),
              let due = waiting.removeValue(forKey: group) else { return }
        for (queue, work) in due { queue.async(barrier: false) { [self] in run(work, on: queue) } }
    }

    /// The simulated timer of the timer source at `source` (its address), made on first use
    /// with `queue`, its target's simulated queue.
    func timer(_ source: UInt, queue: RealDispatchQueue, clock: @escaping () -> VirtualTime) -> SimulatedTimerSource {
        if let timer = timers[source] { return timer }
        let timer = SimulatedTimerSource(queue: queue.underlying, clock: clock) { [unowned self] work in
            run(work, on: queue)
        }
        timers[source] = timer
        return timer
    }

    /// The simulated timer of the timer source at `source`, if the process made one.
    func existingTimer(_ source: UInt) -> SimulatedTimerSource? { timers[source] }

    /// Per timer source made in the process (its address), its simulated timer.
    private var timers: [UInt: SimulatedTimerSource] = [:]

    /// Keeps a block Foundation sent to an `OperationQueue`'s queue (it holds its operation) until
    /// the process ends. swift-corelibs-foundation's `Operation` lists the operations that
    /// depend on it unretained: a cancelled completion operation that finished first is freed
    /// while an upload it depends on still lists it, and that upload's `finish()` then reads it
    /// (an asynchronous `Operation` finishes on another queue, so running the queue's blocks one
    /// at a time does not keep it out). Darwin's Foundation retains them; kept here, no
    /// operation of a process is freed before the process ends.
    func keepUntilProcessEnds(_ work: RealDispatchWork) {
        operationBlocks.append(work)
    }

    func removeAll() {
        let released = (queues, waiting, timers, operationBlocks)
        queues = [:]
        waiting = [:]
        timers = [:]
        operationBlocks = []
        withExtendedLifetime(released) {}
    }
}
