import DeterministicSimulation

/// `no-busy-loop`: the app never loops without waiting for anything. Time passes for the app only
/// when a job comes due later or a thread's own sleep ends, so a loop that never waits (a retry
/// whose `try? await Task.sleep` throws at once once its task is cancelled, a thread that yields
/// until a flag no one sets) keeps the app at one moment however many steps it takes (the
/// harness's own preemption delays move the clock, but are not the app's waits). The scheduler
/// finds it at ``RunSpec/busyLoopLimit`` steps and stops the run
/// (``DeterministicSimulation/BusyLoop``). On a device the loop burns the CPU until the system
/// ends the app (C4.2's CPU limit, or the watchdog at the deadline, A3.5).
///
/// Excuses nothing: the loop is the app's own code; the system's work always waits for time.
final class NoBusyLoop: EventFilteringChecker {
    func observe(_ event: SimEvent, at time: VirtualTime, facts: RunFacts) -> String? {
        guard case .busyLoop(let loop) = event else { return nil }
        return "the app looped without waiting: \(loop); a loop must wait for something that takes time "
            + "(a cancelled Task.sleep throws at once: stop on CancellationError or check Task.isCancelled, "  // tidy: allow a message
            + "do not swallow it with try?), or it burns the CPU until the system ends the app"
    }

    static func observes(_ event: SimEvent) -> Bool {
        switch event {
        case .busyLoop: true
        default: false
        }
    }
}
