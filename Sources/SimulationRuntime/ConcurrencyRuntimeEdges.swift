internal import SimulationRuntimeShims

/// The Swift concurrency runtime's own happens-before marks, and the task and actor a thread
/// runs, for the plain-access checks: the runtime orders a task's steps, a continuation's resume
/// and await, a task's completion and the wait for its value, and an actor's turns with atomics
/// the engine cannot see, and marks each for ThreadSanitizer through two hook variables
/// (`_swift_tsan_acquire`, `_swift_tsan_release`). The shim (`concurrency_edges.c`) fills them,
/// passing every mark on to the hook set before (ThreadSanitizer's, in a sanitized process) and,
/// on a thread of a run that checks plain accesses, to the engine as a `BGSIM_SYNC_RUNTIME_*`
/// edge.
///
/// ```swift
/// ConcurrencyRuntimeEdges.install()                   // once, when a run first checks plain accesses
/// let (task, actor) = ConcurrencyRuntimeEdges.current()   // in an access made by a task's job
/// ```
///
/// Contract: installing is idempotent and thread-safe, and outside a run that checks plain
/// accesses a mark costs a thread-local load beyond the previous hook's; where the runtime has no
/// hook variables nothing is installed. ``current()`` answers what the runtime's thread-local
/// state says: a task the thread runs a job of (or, on a thread that runs a run without one, the
/// task that started the run, such as a test's), and its actor (0 on the generic executor).
package enum ConcurrencyRuntimeEdges {
    /// Installs the shim's receivers of the runtime's marks; false where the runtime has none.
    @discardableResult
    package static func install() -> Bool { bgsim_concurrency_edges_install() != 0 }

    /// The address of the task the calling thread runs (0: none) and of the actor it runs on (0:
    /// the generic executor).
    package static func current() -> (task: UInt, actor: UInt) {
        var task: UnsafeMutableRawPointer?
        var actor: UnsafeMutableRawPointer?
        bgsim_current_task(&task, &actor)
        return (UInt(bitPattern: task), UInt(bitPattern: actor))
    }
}
