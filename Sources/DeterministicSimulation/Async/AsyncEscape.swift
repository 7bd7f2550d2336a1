/// A piece of Swift concurrency that left a run's deterministic world: it reached Swift's real
/// executors or clocks, or came into the run from a thread outside it.
///
/// ```swift
/// _ = scheduler.run(until: .seconds(60))
/// for escape in scheduler.asyncEscapes { print(escape) }
/// // at 2.000000s on simulated queue 'main': a job reached Swift's global executor: an
/// // unstructured `Task {}` or `Task.detached` without the run's executor preference ...
/// ```
///
/// Contract: the ``description`` names what escaped, when (virtual time, when it is known) and
/// on which simulated queue or thread, and says what to use instead. Equal escapes are not
/// merged: each occurrence is one value (up to ``AsyncState/escapeLimit`` per run).
public struct AsyncEscape: Hashable, Sendable, CustomStringConvertible {
    /// What escaped.
    public enum Kind: Hashable, Sendable {
        /// A job reached Swift's real global executor: `Task {}` or `Task.detached` in a run
        /// whose workload does not declare Swift concurrency, or in a process where the
        /// engine's executors are not installed (``ProcessExecutors``).
        case globalExecutor
        /// A real `Task.sleep(nanoseconds:)` that reached the runtime's delayed global enqueue.
        case realSleep(nanoseconds: UInt64)
        /// A sleep the run could not put on virtual time: on a clock other than
        /// `ContinuousClock`, `SuspendingClock` and ``SimulationClock`` (named), on those clocks
        /// where virtual clocks are not built (``VirtualClocks/isSupported``), or in a run with no
        /// async domain.
        case realClockSleep(clock: String)
        /// A job for the process's real main actor (`@MainActor`, `MainActor.run`) that reached
        /// the real main thread: the run's workload does not declare Swift concurrency, or the
        /// engine's executors are not installed.
        case realMainActor
        /// Work sent to a real Dispatch queue from inside a run (`DispatchQueue.async`,
        /// `asyncAfter`; the queue's label and the C function) that the run's simulator did not
        /// take onto a simulated queue (the engine alone has none). It would run on a real
        /// thread, outside the simulation, so it is not sent: the run goes on as if the queue
        /// never ran it, and stays reproducible (Linux, where the engine sees Dispatch calls).
        case realDispatchQueue(label: String, call: String)
        /// A Dispatch source made and started inside a run (the C function that started it) that
        /// the run's simulator does not simulate (any but a timer; the engine alone simulates
        /// none): its handler would run on a real thread, so it is not started (Linux). Also a
        /// Foundation run-loop `Timer` added to the main run loop inside a run
        /// (`CFRunLoopAddTimer`) that the run cannot fire: made outside the run, or with no
        /// simulator to fire it.
        case realDispatchSource(call: String)
        /// A job of a run's task or main executor, or a cancellation of a ``SimulationClock``
        /// sleep, came from a thread that is not running the run: a continuation resumed from a
        /// real thread, a task started outside any scheduler job, or a `cancel()` from outside.
        case foreignThread(String)
    }

    /// What escaped.
    public let kind: Kind
    /// The virtual time it was seen at; nil when seen from outside the run.
    public let time: VirtualTime?
    /// The simulated thread or queue that was running (`"main"`, `"tasks#2"`); nil when unknown.
    public let place: String?

    /// An escape (made by the async layer; public for tests and reports).
    ///
    /// ```swift
    /// let escape = AsyncEscape(kind: .realClockSleep, time: .seconds(3), place: "tasks#1")
    /// ```
    public init(kind: Kind, time: VirtualTime?, place: String?) {
        self.kind = kind
        self.time = time
        self.place = place
    }

    /// One line: where and when, what escaped, and the deterministic replacement.
    public var description: String {
        var prefix = ""
        if let time { prefix += "at \(time) " }
        if let place { prefix += "on simulated \(place.contains("#") ? "thread" : "queue") '\(place)'" }
        prefix = prefix.isEmpty ? "" : prefix.trimmingTrailingSpace() + ": "
        return prefix + what
    }

    /// The kind in words, with the fix.
    private var what: String {
        switch kind {
        case .globalExecutor:
            "a job reached Swift's real global executor (`Task {}`, `Task.detached` or a task resuming): "
                + Self.notRouted
        case .realSleep(let nanoseconds):
            "a `Task.sleep(nanoseconds: \(nanoseconds))` on the real clock: " + Self.notRouted  // tidy: allow a message naming the banned API
        case .realClockSleep(let clock):
            "`Task.sleep` on the real clock (a sleep on \(clock) could not be put on the run's virtual time): "  // tidy: allow a message naming the banned API
                + "sleep on `ContinuousClock` or `SuspendingClock` (virtual inside a run on Linux), or on the run's "  // tidy: allow a message naming the clocks
                + "clock (`scheduler.asyncClock`); or " + Self.notRouted
        case .realDispatchQueue(let label, let call):
            "work sent to a real DispatchQueue\(label.isEmpty ? "" : " ('\(label)')") (\(call)): it would run on a real "  // tidy: allow a message naming the API
                + "thread, outside the simulation, so the run did not send it; give the code a simulated queue (BackgroundTaskKit's WorkQueue: "
                + "`application.makeSerialQueue(label:)` in a run) or Swift concurrency, which runs inside the run"
        case .realDispatchSource(let call) where call.hasPrefix("CFRunLoop"):
            "a run-loop Timer added to the main run loop inside the run (\(call)) that the run cannot fire (made outside "
                + "the run, or no simulated app to fire it on): it would fire on a real thread, outside the simulation, so the run "
                + "did not add it; make the timer inside the run (`Timer.scheduledTimer` on the main thread), or use "
                + "`asyncAfter` or Swift concurrency, which run inside the run"
        case .realDispatchSource(let call):
            "a DispatchSource started inside the run (\(call)): its handler would run on a real thread, outside "  // tidy: allow a message naming the API
                + "the simulation, so the run did not start it; call back on the app's queues (`async`, `asyncAfter`, "
                + "a timer source) or with Swift concurrency, which run inside the run"
        case .realMainActor:
            "a hop to the process's real MainActor (`@MainActor`, `MainActor.run`): " + Self.notRouted
        case .foreignThread(let what):
            "\(what) from a thread outside the run (a continuation resumed by a real thread, a task started "
                + "outside any scheduler job, or a cancel from outside); it was not let into the run"
        }
    }
}

extension AsyncEscape {
    /// Why a job could not be kept in the run, and the fix.
    static let notRouted =
        "the run could not keep it: declare `usesAsync: true` in the workload's WorkloadInfo (so the run has an "
        + "async domain), and do not set BGSIM_PROCESS_EXECUTORS=off (it keeps Swift's own executors)"
}

extension String {
    /// The string without trailing spaces.
    fileprivate func trimmingTrailingSpace() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
