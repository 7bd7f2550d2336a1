import DeterministicSimulation

/// What watches one run's event stream: the trace recorder, the ``RunFacts``, the coverage
/// counter and the invariant checkers, in that order, plus the violations found so far.
///
/// ```swift
/// let monitor = RunMonitor(recorder: TraceRecorder(keepsEntries: false), checkers: checkers)
/// device.monitor = monitor       // SimulatedDevice.emit calls it for every event
/// ```
///
/// Contract: for each event, the recorder records it, the facts take it in, coverage counts it,
/// then each checker observes it; a checker's message is recorded as a `violation` event at the
/// same time, right after the event. One final class called directly (not a closure in the
/// device's sink list), because every event of every run passes through it.
final class RunMonitor {
    let recorder: TraceRecorder<SimEvent>
    let facts = RunFacts()
    let coverage = CoverageCounter()
    /// The run's checkers with their invariant ids, in the specification's order.
    let checkers: [(id: String, checker: any InvariantChecker)]
    /// The checkers again, listed by event kind for the per-event loop (see ``kindStarts``).
    private let observers: [Observer]

    private struct Observer {
        let checker: any InvariantChecker
        let index: Int
    }

    /// For each event kind (``SimEvent/kindIndex``), the checkers to call, in order:
    /// `observers[kindStarts[k]..<kindStarts[k + 1]]`. A checker that is not an
    /// ``EventFilteringChecker`` is listed under every kind.
    private let kindStarts: [Int]
    /// Every violation found, in the order found.
    private(set) var violations: [Violation] = []
    /// Called by ``finish(at:)`` before the checkers' verdicts: the device's last events (the
    /// escapes of an async run), which the checkers then see.
    var beforeFinish: (() -> Void)?

    /// - Parameter filtersEvents: whether to call an ``EventFilteringChecker`` only for the
    ///   events it observes (false calls every checker for every event; the tests compare both).
    init(recorder: TraceRecorder<SimEvent>, checkers: [(id: String, checker: any InvariantChecker)],
         filtersEvents: Bool = true) {
        self.recorder = recorder
        self.checkers = checkers
        var observers: [Observer] = []
        var kindStarts: [Int] = []
        // One dynamic cast per checker, not per checker and kind: each cast is a conformance
        // lookup, and 30 kinds of them per run cost more than a short run's events.
        let filters: [(any EventFilteringChecker.Type)?] = checkers.map { entry in
            guard filtersEvents, let filtering = entry.checker as? any EventFilteringChecker else { return nil }
            return type(of: filtering)
        }
        for kind in 0..<SimEvent.kindCount {
            kindStarts.append(observers.count)
            let event = SimEvent.representative(ofKind: kind)
            for (index, entry) in checkers.enumerated() {
                if let filter = filters[index], !filter.observes(event) {
                    continue
                }
                observers.append(Observer(checker: entry.checker, index: index))
            }
        }
        kindStarts.append(observers.count)
        self.observers = observers
        self.kindStarts = kindStarts
    }

    /// Takes in one event at `time`.
    func observe(_ event: SimEvent, at time: VirtualTime) {
        recorder.record(event, at: time)
        facts.observe(event, at: time)
        coverage.observe(event, facts: facts)
        let kind = event.kindIndex
        for position in kindStarts[kind]..<kindStarts[kind + 1] {
            let observer = observers[position]
            if let message = observer.checker.observe(event, at: time, facts: facts) {
                report(checkers[observer.index].id, message, time)
            }
        }
    }

    /// Asks every checker for its end-of-run violations.
    func finish(at time: VirtualTime) {
        beforeFinish.take()?()
        for entry in checkers {
            for message in entry.checker.finish(at: time, facts: facts) { report(entry.id, message, time) }
        }
    }

    private func report(_ invariant: String, _ message: String, _ time: VirtualTime) {
        violations.append(Violation(invariant: invariant, message: message, time: time))
        recorder.record(.violation(invariant: invariant, message: message), at: time)
    }
}
