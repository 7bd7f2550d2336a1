internal import SimulationRuntimeShims

/// One call to a real Dispatch queue made inside a run (`DispatchQueue.main.async`,
/// `queue.sync`, `asyncAfter`, a group's `notify`), as the shim hands it to the engine: which
/// queue would run the work, how, and the work itself. The C side is `dispatch_calls.c`, and
/// `kept_dispatch_calls.c` for a call the engine keeps.
///
/// ```swift
/// // in the engine's observer, for a call `call`:
/// switch call.operation {
/// case .sync: simulatedQueue.sync { call.runNow() }
/// case .async: let work = call.keep(); simulatedQueue.async { work.run() }
/// default: break
/// }
/// ```
///
/// Contract: a view of the shim's call, valid only inside the observer's callback; ``keep()``
/// gives work that outlives it. The work runs at most once, on whatever thread calls ``runNow()``
/// or ``RealDispatchWork/run()``.
package struct RealDispatchCall {
    /// How the call wants the work run.
    package enum Operation: Equatable, Sendable {
        /// `async` (also `barrier` and `group` forms): soon, on the queue.
        case async
        /// `asyncAfter`: on the queue at a virtual instant in microseconds (nil: never).
        case after(deadlineMicroseconds: Int64?)
        /// `sync`: on the queue, while the caller waits.
        case sync
        /// A group's `notify`: on the queue once the group is empty.
        case notify
        /// Not a call that sends work: a `leave` of a group (a notify may be due).
        case groupLeft
        /// The start (`resume`, `activate`) of a Dispatch source made inside the run that is not a
        /// timer: its handler would run on a real thread.
        case sourceStarted
        /// A timer source made inside the run (``source``), simulated: its schedule (the first
        /// fire at a virtual instant in microseconds, nil for never; the interval in
        /// microseconds, nil for once), its event or cancel handler (the work, ``keep()``),
        /// `resume` (one with no suspension to undo: report with ``violatesContract()``),
        /// `activate`, `suspend`, `cancel`, and `isCancelled` (answer with ``answer(_:)``). A Foundation `Timer` added to the main run loop in the run comes as
        /// the same operations on the main queue (``source`` is its `CFRunLoopTimer`; added:
        /// handler, schedule, resume; `invalidate()`: cancel; `fireDate`: a new schedule).
        case timerSchedule(deadlineMicroseconds: Int64?, intervalMicroseconds: Int64?)
        case timerEventHandler
        case timerCancelHandler
        case timerResume
        case timerActivate
        /// The app let go of its last reference to the timer: an active one is cancelled; a
        /// suspended or inactive one stops the process (answer 1 for inactive, 2 for suspended,
        /// and ``violatesContract()``).
        case timerReleased
        case timerSuspend
        case timerCancel
        case timerIsCancelled
        /// Not Dispatch: Foundation's `Thread.isMainThread` asked on a run's thread (answer with
        /// ``answer(_:)``: 1 on the simulated main thread).
        case isMainThread
        /// `dispatchPrecondition(condition: .onQueue(_:))` (true) or `.notOnQueue(_:)` (false):
        /// report with ``violatesContract()`` when the caller does not run (or runs) on the queue.
        case assertOnQueue(Bool)
        /// Not a call that sends work: the app made the queue ``queue`` (its own address, not a
        /// target's); a route made for an earlier queue at that address is stale.
        case queueMade
        /// Not a call that sends work: `DispatchQueue.getSpecific(key:)` on a run's thread;
        /// answer with ``answer(_:)`` the Dispatch queue whose block runs on the calling thread
        /// (the ``origin`` of its call; -1: the main queue; 0: none).
        case currentQueue
    }

    /// The queue that runs the work, as Dispatch sees it.
    package enum QueueKind: Equatable, Sendable {
        case main, global, serial, concurrent
        /// The concurrent queue under an `OperationQueue`: one block at a time, in no promised
        /// order (`BGSIM_QUEUE_ONE_AT_A_TIME`).
        case oneAtATime
    }

    private let call: UnsafeMutablePointer<bgsim_dispatch_call>

    /// The call behind the shim's pointer (a `bgsim_dispatch_call`).
    package init(_ pointer: OpaquePointer) {
        call = .init(pointer)
    }

    /// The queue that runs the work (the one called, or the serial or main queue it targets),
    /// as an identity: the address of Dispatch's object, stable while the queue lives.
    package var queue: UInt { UInt(bitPattern: call.pointee.queue) }

    /// The queue called, before following its targets (a timer's: the queue it was made with),
    /// as an address; 0 for calls on no queue.
    package var origin: UInt { UInt(bitPattern: call.pointee.origin) }

    package var queueKind: QueueKind {
        switch call.pointee.queueKind {
        case Int32(BGSIM_QUEUE_MAIN): .main
        case Int32(BGSIM_QUEUE_GLOBAL): .global
        case Int32(BGSIM_QUEUE_CONCURRENT): .concurrent
        case Int32(BGSIM_QUEUE_ONE_AT_A_TIME): .oneAtATime
        default: .serial
        }
    }

    /// The label of the queue called ("" when it has none).
    package var label: String { String(cString: call.pointee.label) }

    /// The Dispatch function called, such as "dispatch_async".
    package var function: String { String(cString: call.pointee.function) }

    package var operation: Operation {
        switch call.pointee.operation {
        case Int32(BGSIM_DISPATCH_AFTER):
            call.pointee.deadline < 0 ? .after(deadlineMicroseconds: nil) : .after(deadlineMicroseconds: call.pointee.deadline)
        case Int32(BGSIM_DISPATCH_SYNC): .sync
        case Int32(BGSIM_DISPATCH_NOTIFY): .notify
        case Int32(BGSIM_DISPATCH_GROUP_LEFT): .groupLeft
        case Int32(BGSIM_DISPATCH_SOURCE): .sourceStarted
        case Int32(BGSIM_DISPATCH_ASSERT_ON): .assertOnQueue(true)
        case Int32(BGSIM_DISPATCH_ASSERT_NOT_ON): .assertOnQueue(false)
        case Int32(BGSIM_DISPATCH_TIMER_SET):
            .timerSchedule(deadlineMicroseconds: call.pointee.deadline < 0 ? nil : call.pointee.deadline,
                           intervalMicroseconds: call.pointee.interval < 0 ? nil : call.pointee.interval)
        case Int32(BGSIM_DISPATCH_TIMER_HANDLER): .timerEventHandler
        case Int32(BGSIM_DISPATCH_TIMER_CANCEL_HANDLER): .timerCancelHandler
        case Int32(BGSIM_DISPATCH_TIMER_RESUME): .timerResume
        case Int32(BGSIM_DISPATCH_TIMER_ACTIVATE): .timerActivate
        case Int32(BGSIM_DISPATCH_TIMER_RELEASED): .timerReleased
        case Int32(BGSIM_DISPATCH_TIMER_SUSPEND): .timerSuspend
        case Int32(BGSIM_DISPATCH_TIMER_CANCEL): .timerCancel
        case Int32(BGSIM_DISPATCH_TIMER_TEST_CANCEL): .timerIsCancelled
        case Int32(BGSIM_DISPATCH_IS_MAIN_THREAD): .isMainThread
        case Int32(BGSIM_DISPATCH_QUEUE_MADE): .queueMade
        case Int32(BGSIM_DISPATCH_CURRENT_QUEUE): .currentQueue
        default: .async
        }
    }

    /// Whether the call is a barrier form (`flags: .barrier`).
    package var isBarrier: Bool { call.pointee.barrier != 0 }

    /// The source of a source or timer operation (its address; 0 for other calls).
    package var source: UInt { UInt(bitPattern: call.pointee.source) }

    /// Whether the call carries work (a block or a function); a timer handler may be set to none.
    package var hasWork: Bool { call.pointee.block != nil || call.pointee.work != nil }

    /// Answers a call that returns a value (``Operation/timerIsCancelled``).
    package func answer(_ value: Int64) { call.pointee.result = value }

    /// The group of a `notify` or a `leave` (its address), or nil.
    package var group: UInt? { call.pointee.group.map { UInt(bitPattern: $0) } }

    /// Says that the call breaks Dispatch's contract (an ``Operation/assertOnQueue(_:)``
    /// condition that does not hold, a ``Operation/timerResume`` with no suspension to undo):
    /// the shim stops the process, as Dispatch would, once the observer returns.
    package func violatesContract() { call.pointee.violated = 1 }

    /// Runs the work on the calling thread now (a `sync`): the call is still on the caller's
    /// stack.
    package func runNow() { bgsim_dispatch_call_run(call) }

    /// The work, kept to run later (its block copied); the shim then leaves the block to it.
    ///
    /// - Parameter abandonsIfNeverRun: released without having run, the work lets go of its
    ///   block without releasing it, so what the block captured is never destroyed: for a run
    ///   that uses Swift concurrency, where a captured checked continuation would print Swift's
    ///   "leaked its continuation" misuse warning when work a killed process queued is dropped
    ///   (a killed process on a device prints nothing). Its captures leak instead.
    package func keep(abandonsIfNeverRun: Bool = false) -> RealDispatchWork {
        RealDispatchWork(bgsim_dispatch_call_keep(call), abandonsIfNeverRun: abandonsIfNeverRun)
    }

    /// How many timer sources of ended runs were freed in this process: a run's timers that
    /// nothing but the shim holds when it ends are freed then (the others stay kept).
    package static var sourcesFreed: UInt64 { bgsim_real_dispatch_sources_freed() }

    /// Whether the group at `group` (from ``group``) is empty now.
    package static func isGroupEmpty(_ group: UInt) -> Bool {
        guard let pointer = OpaquePointer(bitPattern: group) else { return true }
        return bgsim_dispatch_group_is_empty(.init(pointer)) != 0
    }
}

/// Work a real Dispatch call sent, kept by the run to run on a simulated queue
/// (``RealDispatchCall/keep(abandonsIfNeverRun:)``).
///
/// Contract: ``run()`` at most once; releasing the object releases the block and what it
/// captured (unless it never ran and was kept with `abandonsIfNeverRun`: then they leak).
/// `@unchecked Sendable`: a run touches it from one thread at a time.
package final class RealDispatchWork: @unchecked Sendable {
    private let call: UnsafeMutablePointer<bgsim_dispatch_call>
    private let abandonsIfNeverRun: Bool
    private var ran = false

    fileprivate init(_ call: UnsafeMutablePointer<bgsim_dispatch_call>, abandonsIfNeverRun: Bool) {
        self.call = call
        self.abandonsIfNeverRun = abandonsIfNeverRun
    }

    /// Runs the work (and leaves its group, for a `group.async`).
    package func run() {
        ran = true
        bgsim_dispatch_call_run(call)
    }

    /// The queue the work was sent to, before following its targets (an address, held alive
    /// while this object lives): the queue `DispatchQueue.getSpecific` reads while it runs.
    package var origin: UInt { UInt(bitPattern: call.pointee.origin) }

    deinit {
        if abandonsIfNeverRun && !ran { bgsim_dispatch_call_abandon(call) } else { bgsim_dispatch_call_free(call) }
    }
}
