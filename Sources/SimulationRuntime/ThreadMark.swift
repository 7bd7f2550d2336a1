internal import SimulationRuntimeShims

/// One unretained object per OS thread, in a C thread-local variable the clock shim reads too:
/// the mechanism under the engine's `RunThreadMarker` (which run's job the thread is running).
///
/// ```swift
/// let previous = ThreadMark.enter(scheduler, locks: nil)
/// defer { ThreadMark.leave(restoring: previous) }
/// ThreadMark.current(as: Scheduler.self) === scheduler   // true on this thread
/// ```
///
/// Contract: the mark holds no reference: whoever enters an object keeps it alive until it
/// leaves, and reads it only meanwhile (`current(as:)` must name the type that was entered).
/// One thread-local load or store per call (a function call from another module: the shim is
/// imported internally, so these bodies cannot be inlinable).
package enum ThreadMark {
    /// The object the calling thread is marked with, as `type`; nil when unmarked.
    @inline(__always)
    package static func current<Object: AnyObject>(as type: Object.Type) -> Object? {
        guard let raw = bgsim_run_mark_get() else { return nil }
        return Unmanaged<Object>.fromOpaque(raw).takeUnretainedValue()
    }

    /// The object a shim callback's `mark` names (the shim hands back the calling thread's
    /// mark), as `type`: unretained, alive while it executes on the thread.
    ///
    /// ```swift
    /// bgsim_virtual_clocks_register({ mark in ThreadMark.object(marked: mark, as: Scheduler.self).now.microseconds }, …)
    /// ```
    @inlinable @inline(__always)
    package static func object<Object: AnyObject>(marked mark: UnsafeMutableRawPointer, as type: Object.Type) -> Object {
        Unmanaged<Object>.fromOpaque(mark).takeUnretainedValue()
    }

    /// `object` retained once, as the shim hands it to Swift code that takes it owned (a getter
    /// a shim answers on a marked thread: `NotificationCenter.default` inside a run).
    @inlinable
    package static func retainedForShim(_ object: AnyObject) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(object).toOpaque()
    }

    /// What ``enter(_:locks:accesses:)`` replaced: the thread's previous mark and tables.
    package struct Previous {
        var marks: bgsim_thread_marks
    }

    /// Marks the calling thread with `object`, and gives the shim's plain-mutex functions the
    /// run's table (nil: none, the run has no simulated threads) and its plain-access functions
    /// the run's (nil: the run does not check plain accesses); returns what it replaced, for
    /// ``leave(restoring:)``. The mark holds none: the caller keeps them alive meanwhile. One
    /// call into the shim.
    @inline(__always)
    package static func enter(_ object: AnyObject, locks: PlainLockTable?, accesses: PlainAccessTable? = nil) -> Previous {
        var marks = bgsim_thread_marks(mark: Unmanaged.passUnretained(object).toOpaque(), locks: locks?.memory,
                                       accesses: accesses?.memory)
        bgsim_thread_marks_exchange(&marks)
        return Previous(marks: marks)
    }

    /// Restores the mark and tables ``enter(_:locks:accesses:)`` replaced.
    @inline(__always)
    package static func leave(restoring previous: Previous) {
        var marks = previous.marks
        bgsim_thread_marks_exchange(&marks)
    }

    /// Tells the shim that the run marked with `object` (its scheduler) has ended: it forgets
    /// what it remembers of the run (the Dispatch sources it made), so that a later run marked
    /// with an object at the same address finds none of it.
    package static func runEnded(_ object: AnyObject) {
        bgsim_real_dispatch_run_ended(Unmanaged.passUnretained(object).toOpaque())
    }

    /// Whether the calling thread is marked with `object` (a pointer comparison, no retain).
    @inline(__always)
    package static func isMarked(_ object: AnyObject) -> Bool {
        bgsim_run_mark_get() == Unmanaged.passUnretained(object).toOpaque()
    }
}
