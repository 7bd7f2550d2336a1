package import DeterministicSimulation
package import SimulationFormats

/// A run's trace in the Chrome trace-event format that ui.perfetto.dev and chrome://tracing open
/// (`bgsim replay --perfetto FILE`).
///
/// Layout: one process, "simulated iPhone". Thread 1 shows the app's states as slices; each
/// UIKit background task gets its own thread (`task <process>.<id>`) with its lifetime as a
/// slice; BGTasks likewise; lifecycle notifications, environment actions and console lines are
/// instants on thread 2; violations are global instants. Times are virtual microseconds.
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

        init() {
            events.append(meta("process_name", tid: 0, name: "simulated iPhone"))
            events.append(meta("thread_name", tid: 1, name: "app state"))
            events.append(meta("thread_name", tid: 2, name: "lifecycle and environment"))
        }

        mutating func take(_ entry: TraceEntry<SimEvent>) {
            let time = entry.time
            switch entry.event {
            case .processLaunched(let number, _):
                process = number
            case .stateChanged(_, let to):
                closeState(at: time)
                state = (to.rawValue, time)
            case .taskBegan(let id, let name, _):
                openTask(tid: 1_000 * process + id, label: "task \(process).\(id)", name: name, at: time)
            case .taskEnded(let id, _):
                closeTask(tid: 1_000 * process + id, at: time)
            case .bgTaskLaunched(let identifier, let task, _):
                openTask(tid: 1_000_000 + task, label: "BGTask \(task)", name: identifier, at: time)
            case .bgTaskCompleted(_, let task, _, false):
                closeTask(tid: 1_000_000 + task, at: time)
            case .terminated:
                for task in openTasks { slice(task, until: time) }
                openTasks = []
                instant(entry.event.name, at: time, tid: 2, args: entry.event.fields)
            case .violation(let invariant, _):
                var object = instantObject("violation: \(invariant)", at: time, tid: 2, args: entry.event.fields)
                object.set(.string("g"), forKey: "s")
                events.append(.object(object))
            default:
                instant(entry.event.name, at: time, tid: 2, args: entry.event.fields)
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
