/// Where a kind of event appears in a Perfetto trace (``PerfettoTrace``): part of its
/// ``SimEvent/KindSpec``, so a new kind states its track next to its name.
///
/// ```swift
/// KindSpec(name: "task.end", example: .taskEnded(id: 0, name: ""), perfetto: .taskEnds(.uikitTask, id: "id"))
/// ```
///
/// Contract: the tracks name fields by their trace keys; every key named is a field of the kind
/// with the value type the track reads (an integer id, a string name, a Boolean flag), which
/// `SimEventDescriptionTests` checks for every kind. Tracks other than ``instant`` and
/// ``globalInstant(label:)`` draw no mark of their own unless stated.
enum PerfettoTrack: Sendable, Equatable {
    /// An instant on the "lifecycle and environment" thread, with the event's fields as its
    /// arguments: the default.
    case instant
    /// Numbers the threads of the UIKit tasks that follow after integer field `number` (the
    /// process); no mark.
    case process(number: String)
    /// Ends the current app-state slice and starts one named by string field `name`; no mark.
    case appState(name: String)
    /// Starts a slice on a task's own thread: the task is integer field `id`, the slice is named
    /// by string field `name`; no mark.
    case taskBegins(TaskThread, id: String, name: String)
    /// Ends the slice of integer field `id` on its thread; no mark. When Boolean field
    /// `unlessTrue` is true, an ``instant`` instead (a repeating task goes on).
    case taskEnds(TaskThread, id: String, unlessTrue: String? = nil)
    /// Ends every open task slice, then an ``instant``.
    case terminates
    /// An instant across all threads, named "<event name>: <string field `label`>".
    case globalInstant(label: String)

    /// The family of threads a task's slices go on.
    enum TaskThread: Sendable, Equatable {
        /// Thread `1000 * process + id`, named `task <process>.<id>`.
        case uikitTask
        /// Thread `1_000_000 + id`, named `BGTask <id>`.
        case bgTask
    }

    /// The field keys the track reads, with the value each must have.
    var fieldsRead: [(key: String, type: FieldType)] {
        switch self {
        case .instant, .terminates: []
        case .process(let number): [(number, .int)]
        case .appState(let name): [(name, .string)]
        case .taskBegins(_, let id, let name): [(id, .int), (name, .string)]
        case .taskEnds(_, let id, let unlessTrue): [(id, .int)] + (unlessTrue.map { [($0, FieldType.bool)] } ?? [])
        case .globalInstant(let label): [(label, .string)]
        }
    }

    /// The kind of value a field read by a track must have.
    enum FieldType: Sendable, Equatable { case int, string, bool }
}
