package import DeterministicSimulation
package import SimulationFormats

/// A run's trace in the Chrome trace-event format that ui.perfetto.dev and chrome://tracing open
/// (`bgsim replay --perfetto FILE`).
///
/// Layout: one process, "simulated iPhone". Thread 1 shows the app's states as slices; each
/// UIKit background task gets its own thread (`task <process>.<id>`) with its lifetime as a
/// slice; BGTasks likewise; lifecycle notifications, environment actions, host calls and console
/// lines are instants on the track of the simulated thread they happened on (`thread p1.main`,
/// `thread p1.global#1`, `thread system`: see `TraceEntry.thread`), or on thread 2 in a run
/// without controlled concurrency; violations are global instants. Times are virtual
/// microseconds.
///
/// ```swift
/// let json = PerfettoTrace.json(outcome.trace)
/// ```
public enum PerfettoTrace {
    package static func json(_ trace: [TraceEntry<SimEvent>]) -> JSONValue {
        var builder = Builder()
        for entry in trace { builder.take(entry) }
        builder.close(at: trace.last?.time ?? .zero)
        var root = JSONObject()
        root.append("traceEvents", .array(builder.events))
        root.append("displayTimeUnit", .string("ms"))
        return .object(root)
    }

    private struct Builder {
        var events: [JSONValue] = []
        var process = 0
        var state: (name: String, since: VirtualTime)?
        var openTasks: [(tid: Int, name: String, since: VirtualTime)] = []
        var namedThreads: [Int] = []
        /// The simulated threads given a track so far, in order of first event (track
        /// `2_000_000 + index`).
        var simulatedThreads: [String] = []

        init() {
            events.append(meta("process_name", tid: 0, name: "simulated iPhone"))
            events.append(meta("thread_name", tid: 1, name: "app state"))
            events.append(meta("thread_name", tid: 2, name: "lifecycle and environment"))
        }

        /// Draws one event as its kind's ``PerfettoTrack`` says.
        mutating func take(_ entry: TraceEntry<SimEvent>) {
            let time = entry.time
            let (name, fields) = entry.event.traceRecord
            switch SimEvent.Kind.specs[entry.event.kindIndex].perfetto {
            case .instant:
                instant(name, at: time, tid: entry.thread.map { track(ofThread: $0) } ?? 2, args: fields)
            case .process(let number):
                process = Int(fields.int(number))
            case .appState(let stateName):
                closeState(at: time)
                state = (fields.string(stateName), time)
            case .taskBegins(let thread, let id, let sliceName):
                let (tid, label) = self.thread(thread, task: Int(fields.int(id)))
                openTask(tid: tid, label: label, name: fields.string(sliceName), at: time)
            case .taskEnds(let thread, let id, let unlessTrue):
                if let unlessTrue, fields.bool(unlessTrue) {
                    instant(name, at: time, tid: 2, args: fields)
                } else {
                    closeTask(tid: self.thread(thread, task: Int(fields.int(id))).tid, at: time)
                }
            case .terminates:
                for task in openTasks { slice(task, until: time) }
                openTasks = []
                instant(name, at: time, tid: 2, args: fields)
            case .globalInstant(let label):
                var object = instantObject("\(name): \(fields.string(label))", at: time, tid: 2, args: fields)
                object.set(.string("g"), forKey: "s")
                events.append(.object(object))
            }
        }

        /// The track of a simulated thread, named the first time it is used.
        private mutating func track(ofThread label: String) -> Int {
            if let index = simulatedThreads.firstIndex(of: label) { return 2_000_000 + index }
            let tid = 2_000_000 + simulatedThreads.count
            simulatedThreads.append(label)
            events.append(meta("thread_name", tid: tid, name: "thread \(label)"))
            return tid
        }

        /// The thread id and name of a task's slices.
        private func thread(_ thread: PerfettoTrack.TaskThread, task: Int) -> (tid: Int, label: String) {
            switch thread {
            case .uikitTask: (1_000 * process + task, "task \(process).\(task)")
            case .bgTask: (1_000_000 + task, "BGTask \(task)")
            }
        }

        mutating func close(at time: VirtualTime) {
            closeState(at: time)
            for task in openTasks { slice(task, until: time) }
            openTasks = []
        }

        private mutating func closeState(at time: VirtualTime) {
            guard let current = state else { return }
            events.append(complete(current.name, tid: 1, from: current.since, to: time))
            state = nil
        }

        private mutating func openTask(tid: Int, label: String, name: String, at time: VirtualTime) {
            if !namedThreads.contains(tid) {
                namedThreads.append(tid)
                events.append(meta("thread_name", tid: tid, name: label))
            }
            openTasks.append((tid, name, time))
        }

        private mutating func closeTask(tid: Int, at time: VirtualTime) {
            guard let index = openTasks.firstIndex(where: { $0.tid == tid }) else { return }
            slice(openTasks.remove(at: index), until: time)
        }

        private mutating func slice(_ task: (tid: Int, name: String, since: VirtualTime), until time: VirtualTime) {
            events.append(complete(task.name, tid: task.tid, from: task.since, to: time))
        }

        private mutating func instant(_ name: String, at time: VirtualTime, tid: Int, args: [TraceField]) {
            events.append(.object(instantObject(name, at: time, tid: tid, args: args)))
        }

        private func instantObject(_ name: String, at time: VirtualTime, tid: Int, args: [TraceField]) -> JSONObject {
            var object = base(name, phase: "i", tid: tid, time: time)
            object.append("s", .string("t"))
            var fields = JSONObject()
            for field in args where fields[field.key] == nil { fields.append(field.key, TraceJSON.value(field.value)) }
            object.append("args", .object(fields))
            return object
        }

        private func complete(_ name: String, tid: Int, from: VirtualTime, to: VirtualTime) -> JSONValue {
            var object = base(name, phase: "X", tid: tid, time: from)
            object.append("dur", .int(max(0, to.microseconds - from.microseconds)))
            return .object(object)
        }

        private func base(_ name: String, phase: String, tid: Int, time: VirtualTime) -> JSONObject {
            var object = JSONObject()
            object.append("name", .string(name))
            object.append("ph", .string(phase))
            object.append("ts", .int(time.microseconds))
            object.append("pid", .int(1))
            object.append("tid", .int(Int64(tid)))
            return object
        }

        private func meta(_ kind: String, tid: Int, name: String) -> JSONValue {
            var object = JSONObject()
            object.append("name", .string(kind))
            object.append("ph", .string("M"))
            object.append("pid", .int(1))
            object.append("tid", .int(Int64(tid)))
            object.append("args", .object(["name": .string(name)]))
            return .object(object)
        }
    }
}

extension [TraceField] {
    /// The value of the field `key` a ``PerfettoTrack`` names (the description tests check that
    /// every track's keys exist with these types).
    fileprivate func int(_ key: String) -> Int64 {
        guard case .int(let value)? = first(where: { $0.key == key })?.value else { missing(key, "an integer") }
        return value
    }

    fileprivate func string(_ key: String) -> String {
        guard case .string(let value)? = first(where: { $0.key == key })?.value else { missing(key, "a string") }
        return value
    }

    fileprivate func bool(_ key: String) -> Bool {
        guard case .bool(let value)? = first(where: { $0.key == key })?.value else { missing(key, "a Boolean") }
        return value
    }

    private func missing(_ key: String, _ type: String) -> Never {
        preconditionFailure("a Perfetto track reads field '\(key)' as \(type), but the event has \(self)")
    }
}
