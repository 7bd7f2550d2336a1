#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import SimulationFibers

/// A stack of its own, on the OS thread that runs the run, for one pool worker: the light
/// carrier of simulated threads. Switching between two fibers is a user-space stack switch of a
/// few nanoseconds, where a baton handoff between OS threads is a futex wake and a context
/// switch of microseconds (the ControlledConcurrency article, "Fibers").
///
/// ```swift
/// let fiber = Fiber(stackSize: 256 << 10, entry: start, argument: context)  // a new stack
/// let driver = Fiber.onCallingStack()                                       // the thread's own
/// driver.switch(to: fiber)   // runs `start(context)` on the new stack until it switches back
/// ```
///
/// Contract: a fiber runs only on the OS thread that switched to it, and exactly one fiber of a
/// thread runs at a time; its stack is freed when the fiber is released, which must happen only
/// after its entry function has switched away for good. The saved stack pointer lives in memory
/// of its own (``slot``), outside Swift's exclusivity tracking: a switch holds no Swift access
/// open. Nothing thread-local is switched: Swift concurrency's current task, for one, so runs
/// with Swift tasks use OS threads (the engine's `SimulatedThreadPool.Carriers`).
package final class Fiber {
    /// Whether this build can switch stacks in user space (x86-64 Linux, arm64 Linux and Darwin, without a sanitizer).
    package static let isSupported = bgsim_fibers_supported() != 0

    /// Where the stack pointer is saved while the fiber is switched away. It lives as long as
    /// the fiber, and a holder of the fiber may keep it to switch without retaining the fiber
    /// (``switch(saving:to:)``).
    package let slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// The mapping of the fiber's own stack, guard page first; nil for the calling thread's stack.
    private let mapping: (base: UnsafeMutableRawPointer, length: Int)?

    /// A fiber for the stack the calling OS thread is on (a driver): it has no stack of its own
    /// and is entered only by being switched back to.
    package static func onCallingStack() -> Fiber {
        Fiber(mapping: nil)
    }

    private init(mapping: (base: UnsafeMutableRawPointer, length: Int)?) {
        slot = .allocate(capacity: 1)
        slot.initialize(to: nil)
        self.mapping = mapping
    }

    /// A fiber with a new stack of `stackSize` bytes (plus a guard page below it, so an overflow
    /// faults instead of overwriting memory) whose first entry calls `entry(argument)`.
    ///
    /// - Precondition: ``isSupported``; the stack can be mapped (a failure is out of memory).
    package convenience init(
        stackSize: Int, entry: @convention(c) (UnsafeMutableRawPointer?) -> Void, argument: UnsafeMutableRawPointer
    ) {
        precondition(Self.isSupported, "user-space stack switching is not supported in this build")
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let usable = (stackSize + page - 1) / page * page
        let length = usable + page
        #if canImport(Glibc)
            let flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK
        #else
            let flags = MAP_PRIVATE | MAP_ANON
        #endif
        let base = mmap(nil, length, PROT_READ | PROT_WRITE, flags, -1, 0)
        guard let base, base != MAP_FAILED else { preconditionFailure("cannot map a \(length)-byte fiber stack") }
        mprotect(base, page, PROT_NONE)
        self.init(mapping: (base, length))
        slot.pointee = bgsim_fiber_prepare(base + length, entry, argument)
    }

    deinit {
        slot.deallocate()
        if let mapping { munmap(mapping.base, mapping.length) }
    }

    /// Saves the calling fiber (which must be `self`) and continues `next`; returns when some
    /// fiber switches back to `self`.
    @inline(__always)
    package func `switch`(to next: Fiber) {
        bgsim_fiber_switch(slot, next.slot.pointee)
    }

    /// ``switch(to:)`` by the two fibers' ``slot``s: the caller keeps both fibers alive, and no
    /// reference is held across the switch (switching through the objects retained both).
    @inline(__always)
    package static func `switch`(
        saving current: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
        to next: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) {
        bgsim_fiber_switch(current, next.pointee)
    }

    /// The switch a fiber makes when it ends: raw pointers only, so that no Swift reference is
    /// left on a stack that is never resumed (it would never be released).
    package struct LastSwitch {
        fileprivate let save: UnsafeMutablePointer<UnsafeMutableRawPointer?>
        fileprivate let next: UnsafeMutableRawPointer?

        /// Leaves the calling fiber for good.
        package func perform() -> Never {
            bgsim_fiber_switch(save, next)
            preconditionFailure("an ended fiber was resumed")
        }
    }

    /// The last switch from `self` (the calling fiber) to `next`, to perform once every Swift
    /// reference of the caller is gone; `next` must stay alive until then (its switcher keeps it).
    package func lastSwitch(to next: Fiber) -> LastSwitch {
        LastSwitch(save: slot, next: next.slot.pointee)
    }
}
