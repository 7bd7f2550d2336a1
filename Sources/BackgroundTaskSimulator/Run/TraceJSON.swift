package import DeterministicSimulation
package import SimulationFormats

/// A run's trace as JSON: an array of `{"t": seconds, "event": name, "thread": label, <fields>}`
/// (`thread` only for an event that happened on a simulated thread), the same shape as the
/// report's `failures[].trace` (`bgsim replay --trace FILE`).
///
/// ```swift
/// let json = TraceJSON.json(outcome.trace)
/// try AtomicFile.write(JSONWriter().string(for: json), to: "trace.json")
/// ```
public enum TraceJSON {
    package static func json(_ trace: [TraceEntry<SimEvent>]) -> JSONValue {
        .array(trace.map { entry in
            var object = JSONObject()
            object.append("t", seconds(entry.time))
            object.append("event", .string(entry.event.name))
            if let thread = entry.thread { object.append("thread", .string(thread)) }
            for field in entry.event.fields where object[field.key] == nil {
                object.append(field.key, value(field.value))
            }
            return .object(object)
        })
    }

    /// Virtual time in seconds; exact for whole microseconds (6 decimals at most).
    static func seconds(_ time: VirtualTime) -> JSONValue {
        .double(Double(time.microseconds) / 1_000_000)
    }

    static func value(_ value: TraceValue) -> JSONValue {
        switch value {
        case .int(let number): .int(number)
        case .string(let text): .string(text)
        case .bool(let flag): .bool(flag)
        }
    }
}
