import DeterministicSimulation
import SimulationRuntime

/// A `DispatchSourceTimer` the app made in a run, simulated on its target queue: it fires its
/// event handler at the virtual deadlines `schedule(deadline:repeating:)` set, once or every
/// interval, while it is resumed; `suspend()` holds the fires back until the matching
/// `resume()`; `cancel()` stops it and sends its cancel handler to the queue (GCD's contract).
/// It starts inactive: `activate()` or the first `resume()` starts it; a `resume()` after that
/// with no `suspend()` to undo stops the process, as Dispatch does ("Over-resume of an
/// object"), a `no-crash` finding. When the app lets go of its last reference to it, it is
/// cancelled if it runs, and stops the process if it is suspended or inactive ("Release of a
/// suspended object"), as Dispatch does. A fire that comes while the queue is frozen (the app suspended) runs when it thaws, and a
/// repeating timer's next fire is then an interval after it ran: fires are not made up for.
///
/// Contract: a run touches it from one thread at a time; it fires only on its queue.
final class SimulatedTimerSource: @unchecked Sendable {
    // @unchecked: a run is confined to one thread at a time (the baton orders the accesses).
    private let queue: SimulatedWorkQueue
    /// The run's virtual time.
    private let clock: () -> VirtualTime
    /// Runs a handler as a block of the timer's queue.
    private let runHandler: (RealDispatchWork) -> Void
    private var eventHandler: RealDispatchWork?
    private var cancelHandler: RealDispatchWork?
    private var deadline: Int64?
    private var interval: Int64?
    /// A source starts inactive; `activate`, or a `resume` with no suspension to undo, starts it.
    private var isInactive = true
    /// `suspend` calls not yet undone by a `resume`.
    private var suspensions = 0
    private var isCancelled = false
    /// Raised at every change of schedule: a fire sent before it is stale.
    private var generation = 0

    init(queue: SimulatedWorkQueue, clock: @escaping () -> VirtualTime, runHandler: @escaping (RealDispatchWork) -> Void) {
        self.queue = queue
        self.clock = clock
        self.runHandler = runHandler
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
            if suspensions > 0 {
                suspensions -= 1
            } else if isInactive {
                isInactive = false  // a source's resume activates it (GCD's backward compatibility)
            } else {
                call.violatesContract()  // Dispatch: "Over-resume of an object"
                return
            }
            arm()
        case .timerActivate:
            guard isInactive else { return }  // activating an active object does nothing
            isInactive = false
            arm()
        case .timerSuspend:
            suspensions += 1
            generation += 1
        case .timerCancel:
            cancel()
        case .timerReleased:
            // Dispatch's `_dispatch_queue_xref_dispose`: the last release of a suspended or
            // inactive source stops the process; an active one is cancelled.
            if isInactive || suspensions > 0 {
                call.answer(isInactive ? 1 : 2)
                call.violatesContract()
            } else {
                cancel()
            }
        case .timerIsCancelled:
            call.answer(isCancelled ? 1 : 0)
        default:
            break
        }
    }

    /// Stops the timer for good and sends its cancel handler to the queue (once).
    private func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        generation += 1
        if let handler = cancelHandler { queue.async { [self] in runHandler(handler) } }
        cancelHandler = nil
    }

    private var isRunning: Bool { !isInactive && suspensions == 0 && !isCancelled }

    /// Sends the next fire to the queue, when the timer is running and has a deadline.
    private func arm() {
        generation += 1
        guard isRunning, let deadline else { return }
        let armed = generation
        queue.asyncAfter(.microseconds(max(0, deadline - clock().microseconds))) { [self] in fire(armed) }
    }

    private func fire(_ armed: Int) {
        guard armed == generation, isRunning, let deadline else { return }
        // The next deadline: the first of start + k x interval after now (late fires are merged).
        if let interval {
            let now = clock().microseconds
            self.deadline = deadline + interval * max(1, (now - deadline) / interval + 1)
        } else {
            self.deadline = nil
        }
        if let eventHandler { runHandler(eventHandler) }
        arm()
    }
}
