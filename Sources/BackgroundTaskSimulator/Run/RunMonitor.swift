import DeterministicSimulation
import Synchronization

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
    /// The coverage counter, nil for a run that counts no coverage (a shrink's candidates), which
    /// then never builds its tables.
    let coverage: CoverageCounter?
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

    /// - Parameters:
    ///   - filtersEvents: whether to call an ``EventFilteringChecker`` only for the events it
    ///     observes (false calls every checker for every event; the tests compare both).
    ///   - countsCoverage: whether ``coverage`` counts the events (off for a shrink's candidates).
    init(recorder: TraceRecorder<SimEvent>, checkers: [(id: String, checker: any InvariantChecker)],
         filtersEvents: Bool = true, countsCoverage: Bool = true) {
        self.recorder = recorder
        coverage = countsCoverage ? CoverageCounter() : nil
        self.checkers = checkers
        let layout = Self.layout(of: checkers, filtersEvents: filtersEvents)
        observers = layout.checkerIndices.map { Observer(checker: checkers[$0].checker, index: $0) }
        kindStarts = layout.kindStarts
    }

    /// Which checkers observe which event kinds: ``kindStarts``, and for each listed observer
    /// the index of its checker. It depends only on the checkers' types, so it is worked out once
    /// per list of types in a process and kept (a dynamic cast per checker and a filter call per
    /// checker and kind cost 22,000 instructions per run, more than a short run's events).
    private struct Layout {
        var kindStarts: [Int]
        var checkerIndices: [Int]
    }

    private struct LayoutKey: Hashable {
        var types: [ObjectIdentifier]
        var filtersEvents: Bool
    }

    /// Layouts by checker types. Looked up, never iterated: no hash order reaches a run.
    private static let layouts = Mutex<[LayoutKey: Layout]>([:])

    private static func layout(of checkers: [(id: String, checker: any InvariantChecker)],
                               filtersEvents: Bool) -> Layout {
        let key = LayoutKey(types: checkers.map { ObjectIdentifier(type(of: $0.checker)) }, filtersEvents: filtersEvents)
        if let known = layouts.withLock({ $0[key] }) { return known }
        // One dynamic cast per checker, not per checker and kind: each cast is a conformance
        // lookup.
        let filters: [(any EventFilteringChecker.Type)?] = checkers.map { entry in
            guard filtersEvents, let filtering = entry.checker as? any EventFilteringChecker else { return nil }
            return type(of: filtering)
        }
        var layout = Layout(kindStarts: [], checkerIndices: [])
        for kind in 0..<SimEvent.kindCount {
            layout.kindStarts.append(layout.checkerIndices.count)
            let event = SimEvent.representative(ofKind: kind)
            for index in checkers.indices {
                if let filter = filters[index], !filter.observes(event) { continue }
                layout.checkerIndices.append(index)
            }
        }
        layout.kindStarts.append(layout.checkerIndices.count)
        layouts.withLock { $0[key] = layout }
        return layout
    }

    /// Takes in one event at `time`.
    func observe(_ event: SimEvent, at time: VirtualTime) {
        recorder.record(event, at: time)
        facts.observe(event, at: time)
        coverage?.observe(event, facts: facts)
        let kind = event.kindIndex
        for position in kindStarts[kind]..<kindStarts[kind + 1] {
            let observer = observers[position]
            if let message = observer.checker.observe(event, at: time, facts: facts) {
                report(checkers[observer.index].id, message, time)
            }
        }
    }

    /// Asks every checker for its end-of-run violations, unless the run was `cutShort`: stopped
    /// at a busy loop, it never reached its end, and what is still open then (a task, a work
    /// item) is the loop's doing, already reported as `no-busy-loop`, not a bug of its own.
    func finish(at time: VirtualTime, cutShort: Bool = false) {
        beforeFinish.take()?()
        if cutShort { return }
        for entry in checkers {
            for message in entry.checker.finish(at: time, facts: facts) { report(entry.id, message, time) }
        }
    }

    private func report(_ invariant: String, _ message: String, _ time: VirtualTime) {
        violations.append(Violation(invariant: invariant, message: message, time: time))
        recorder.record(.violation(invariant: invariant, message: message), at: time)
    }
}
