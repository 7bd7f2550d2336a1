#if canImport(Glibc)
    package import Glibc
#elseif canImport(Darwin)
    package import Darwin
#endif
package import Dispatch
import Foundation
internal import SimulationRuntimeShims

/// What carries one simulated thread's stack: an OS thread parked on a semaphore, or a fiber (a
/// stack of its own on the run's OS thread). Exactly one carrier of a run holds the baton; it
/// hands it to another with ``handOff(to:)`` and parks until one hands it back. The mechanism
/// under the engine's `SimulatedThreadPool` (its `PoolWorker` says what a carrier runs).
///
/// ```swift
/// let worker = Carrier()
/// worker.startFiber(stackSize: 256 << 10) { loop() }   // runs `loop` at the first handoff to it
/// let driver = Carrier()
/// driver.becomeDriver(withFiber: true)                  // the calling thread's own stack
/// driver.handOff(to: worker)                            // returns when someone hands back
/// ```
///
/// Contract: a fiber carrier runs only on the OS thread that first switched to it, and hands off
/// only to carriers of that thread; a thread carrier hands off by signalling the other's
/// semaphore and waiting on its own (a happens-before edge each way). Nothing shared may be
/// touched between the two halves of a handoff. A started carrier's body runs once; ``stop()``
/// ends a carrier parked in its body's wait (the body must then return) and waits for it.
/// Not thread-safe beyond that: whoever holds the baton uses the carriers.
package final class Carrier: @unchecked Sendable {
    // @unchecked Sendable: the fields are written before the carrier starts, or by the baton
    // holder; the handoffs order every access.

    /// The semaphore a thread carrier parks on.
    package let wake = DispatchSemaphore(value: 0)  // tidy: allow the baton: order is decided by the scheduler
    private let exited = DispatchSemaphore(value: 0)  // tidy: allow joins the thread at exit
    /// The carrier's fiber, when it is one (a driver's: the thread's own stack).
    private var fiber: Fiber? {
        didSet { fiberSlot = fiber?.slot }
    }
    /// The ``fiber``'s saved stack pointer slot, for ``handOff(to:)``: a plain pointer, valid while
    /// the carrier keeps its fiber.
    private var fiberSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    /// Where an ending fiber returns to (the fiber of whoever called ``stop()``).
    private var exitTo: Fiber?
    /// What the carrier runs once started.
    private var body: (() -> Void)?
    /// The thread's kernel id, set by the thread itself before ``startThread(named:stackSize:prepare:body:)``
    /// returns, for `CPUPlacement` (0 where unknown, and for fibers: never pinned).
    package private(set) var threadID: pid_t = 0

    package init() {}

    /// Whether the carrier is a fiber.
    package var isFiber: Bool { fiber != nil }

    /// Starts an OS thread that runs `prepare`, then `body` (which parks with ``park()`` between
    /// handoffs); returns once the thread runs.
    package func startThread(named name: String, stackSize: Int, prepare: @escaping @Sendable () -> Void,
                             body: @escaping () -> Void) {
        self.body = body
        let thread = Thread { [self] in
            prepare()
            #if canImport(Glibc)
                threadID = LinuxAffinityCalls.shared?.threadID() ?? 0
            #endif
            exited.signal()  // started: `threadID` is set
            self.body.take()?()
            exited.signal()
        }
        thread.name = name
        thread.stackSize = stackSize
        thread.start()
        Self.asEngine { exited.wait() }
    }

    /// Makes the carrier a fiber whose first handoff to it runs `body`.
    package func startFiber(stackSize: Int, body: @escaping () -> Void) {
        self.body = body
        fiber = Fiber(stackSize: stackSize, entry: carrierFiberEntry, argument: Unmanaged.passUnretained(self).toOpaque())
    }

    /// Makes the carrier stand for the calling OS thread (a run's driver), as a fiber on its own
    /// stack when the run's carriers are fibers.
    package func becomeDriver(withFiber: Bool) {
        if withFiber { fiber = Fiber.onCallingStack() }
    }

    /// The fiber's life: the body, then back for good to whoever stopped it. The carrier is
    /// borrowed (its owner keeps it alive), and nothing of Swift's is left on the stack when it
    /// switches away the last time.
    fileprivate static func runFiber(_ opaque: UnsafeMutableRawPointer) -> Never {
        let last = { () -> Fiber.LastSwitch in
            let carrier = Unmanaged<Carrier>.fromOpaque(opaque).takeUnretainedValue()
            carrier.body.take()?()
            guard let own = carrier.fiber, let back = carrier.exitTo.take() else {
                preconditionFailure("a fiber ended without being told to exit")
            }
            return own.lastSwitch(to: back)
        }()
        last.perform()
    }

    /// Parks a thread carrier until someone hands it the baton (a fiber is parked by switching).
    package func park() { Self.asEngine { wake.wait() } }

    /// Gives the baton to `other` (a parked carrier or a driver) and parks until someone gives it
    /// back. Not inlinable on purpose: ``fiberSlot`` stays private, so its accesses are checked
    /// at compile time (an inlinable body's would be checked at run time, once per handoff).
    package func handOff(to other: Carrier) {  // tidy: allow the baton handoff
        if let own = fiberSlot {
            Fiber.switch(saving: own, to: other.fiberSlot.unsafelyUnwrapped)
        } else {
            Self.asEngine {
                other.wake.signal()
                wake.wait()
            }
        }
    }

    /// Runs `body`, whose semaphore calls are the baton's: never a simulated thread's plain wait
    /// (the shim's `dispatch_semaphore_wait` would otherwise take a carrier's wait on a marked
    /// thread for app code's).
    @inline(__always)
    private static func asEngine(_ body: () -> Void) {
        let previous = bgsim_engine_waits_set(1)
        body()
        _ = bgsim_engine_waits_set(previous)
    }

    /// Wakes a carrier parked in its body (whose owner has told it to return) and waits until
    /// its body has returned.
    package func stop() {
        if let fiber {
            let back = Fiber.onCallingStack()
            exitTo = back
            back.switch(to: fiber)
        } else {
            Self.asEngine {
                wake.signal()
                exited.wait()
            }
        }
    }
}

/// The C entry of a carrier's fiber (``Carrier/startFiber(stackSize:body:)``).
private func carrierFiberEntry(_ argument: UnsafeMutableRawPointer?) {
    guard let argument else { preconditionFailure("a fiber started without its carrier") }
    Carrier.runFiber(argument)
}
