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
        /// A job reached the global concurrent executor: `Task {}` or `Task.detached` without
        /// the run's executor preference, or such a task resuming after an `await`.
        case globalExecutor
        /// A real `Task.sleep(nanoseconds:)` (the runtime's delayed global enqueue).
        case realSleep(nanoseconds: UInt64)
        /// A sleep on a real clock: `Task.sleep(for:)`, `Task.sleep(until:)`, `ContinuousClock`
        /// or `SuspendingClock` (the runtime's deadline enqueue).
        case realClockSleep
        /// A job for the real main actor (`@MainActor`, `MainActor.run`).
        case realMainActor
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
            "a job reached Swift's global executor: an unstructured `Task {}` or `Task.detached` without the "
                + "run's executor preference, or such a task resuming; start tasks with "
                + "`Task(executorPreference: scheduler.taskExecutor)`"
        case .realSleep(let nanoseconds):
            "a real `Task.sleep(nanoseconds: \(nanoseconds))`; sleep on the run's clock "  // tidy: allow a message naming the banned API
                + "(`scheduler.asyncClock.sleep(for:)`)"
        case .realClockSleep:
            "a sleep on a real clock (`Task.sleep(for:)`, `ContinuousClock`, `SuspendingClock`); sleep on the "  // tidy: allow a message naming the banned APIs
                + "run's clock (`scheduler.asyncClock.sleep(for:)`)"
        case .realMainActor:
            "a job for the real `@MainActor`; isolate workload code to `@SimulatedMainActor`"
        case .foreignThread(let what):
            "\(what) from a thread outside the run (a continuation resumed by a real thread, a task started "
                + "outside any scheduler job, or a cancel from outside); it was not let into the run"
        }
    }
}

extension String {
    /// The string without trailing spaces.
    fileprivate func trimmingTrailingSpace() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
