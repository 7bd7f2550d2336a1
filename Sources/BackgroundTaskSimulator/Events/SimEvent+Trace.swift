public import DeterministicSimulation
import BackgroundTaskKit

extension SimEvent: TraceEventRepresentable {
    /// A dotted name for readable traces and JSON: `task.begin`, `lifecycle.didEnterBackground`…
    public var name: String {
        switch self {
        case .action(let action): "env.\(action.rawValue)"
        case .networkChanged: "env.network"
        case .backgroundRefreshChanged: "env.backgroundRefresh"
        case .processLaunched: "process.launch"
        case .stateChanged: "app.state"
        case .lifecycle(let event): "lifecycle.\(event.rawValue)"
        case .sceneWillConnect: "scene.willConnect"
        case .sceneDidDisconnect: "scene.didDisconnect"
        case .terminated: "process.terminated"
        case .taskBegan: "task.begin"
        case .taskBeginDenied: "task.beginDenied"
        case .taskEnded: "task.end"
        case .endedUnknownTask: "task.endUnknown"
        case .budgetStarted: "budget.start"
        case .expirationCallout: "task.expirationCallout"
        case .expirationHandlerCalled: "task.expirationHandler"
        case .expirationHandlersReturned: "task.expirationHandlersReturned"
        case .console: "console"
        case .nothingHeld: "app.nothingHeld"
        case .taskRegistered: "bgtask.register"
        case .requestSubmitted: "bgtask.submit"
        case .requestCancelled: "bgtask.cancel"
        case .bgTaskLaunched: "bgtask.launch"
        case .bgTaskExpiring: "bgtask.expire"
        case .bgTaskCompleted: "bgtask.complete"
        case .bgTaskProgress: "bgtask.progress"
        case .workStarted: "work.start"
        case .workFinished: "work.finish"
        case .violation: "violation"
        case .runPhase: "run.phase"
        }
    }

    /// The payload as ordered fields.
    public var fields: [TraceField] {
        switch self {
        case .action: []
        case .networkChanged(let available): [TraceField("available", .bool(available))]
        case .backgroundRefreshChanged(let enabled): [TraceField("enabled", .bool(enabled))]
        case .processLaunched(let process, let inBackground):
            [TraceField("process", .int(Int64(process))), TraceField("inBackground", .bool(inBackground))]
        case .stateChanged(let from, let to):
            [TraceField("from", .string(from.rawValue)), TraceField("to", .string(to.rawValue))]
        case .lifecycle, .sceneWillConnect, .sceneDidDisconnect: []
        case .terminated(let reason, let open):
            [TraceField("reason", .string(reason.description)), TraceField("openTasks", .string(Self.list(open)))]
        case .taskBegan(let id, let name, let state):
            [TraceField("id", .int(Int64(id))), TraceField("name", .string(name)), TraceField("state", .string(state.rawValue))]
        case .taskBeginDenied(let name): [TraceField("name", .string(name))]
        case .taskEnded(let id, let name): [TraceField("id", .int(Int64(id))), TraceField("name", .string(name))]
        case .endedUnknownTask(let id): [TraceField("id", .int(Int64(id)))]
        case .budgetStarted(let deadline): [TraceField("deadline", .string(deadline.description))]
        case .expirationCallout(let ids, let early):
            [TraceField("ids", .string(Self.list(ids))), TraceField("early", .bool(early))]
        case .expirationHandlerCalled(let id): [TraceField("id", .int(Int64(id)))]
        case .expirationHandlersReturned(let open, let elapsed):
            [TraceField("stillOpen", .string(Self.list(open))), TraceField("elapsed", .string(elapsed.description))]
        case .console(let text): [TraceField("message", .string(text))]
        case .nothingHeld(let reason): [TraceField("after", .string(reason))]
        case .taskRegistered(let identifier, let accepted):
            [TraceField("identifier", .string(identifier)), TraceField("accepted", .bool(accepted))]
        case .requestSubmitted(let identifier, let kind, let error):
            [TraceField("identifier", .string(identifier)), TraceField("kind", .string(kind)),
             TraceField("error", .string(error ?? "none"))]
        case .requestCancelled(let identifier): [TraceField("identifier", .string(identifier))]
        case .bgTaskLaunched(let identifier, let task, let kind):
            [TraceField("identifier", .string(identifier)), TraceField("task", .int(Int64(task))), TraceField("kind", .string(kind))]
        case .bgTaskExpiring(let identifier, let task, let hasHandler):
            [TraceField("identifier", .string(identifier)), TraceField("task", .int(Int64(task))), TraceField("hasHandler", .bool(hasHandler))]
        case .bgTaskCompleted(let identifier, let task, let success, let repeated):
            [TraceField("identifier", .string(identifier)), TraceField("task", .int(Int64(task))),
             TraceField("success", .bool(success)), TraceField("repeated", .bool(repeated))]
        case .bgTaskProgress(let identifier, let task, let completed, let total):
            [TraceField("identifier", .string(identifier)), TraceField("task", .int(Int64(task))),
             TraceField("completed", .int(completed)), TraceField("total", .int(total))]
        case .workStarted(let id, let name): [TraceField("work", .int(Int64(id))), TraceField("name", .string(name))]
        case .workFinished(let id, let name, let cancelled):
            [TraceField("work", .int(Int64(id))), TraceField("name", .string(name)), TraceField("cancelled", .bool(cancelled))]
        case .violation(let invariant, let message):
            [TraceField("invariant", .string(invariant)), TraceField("message", .string(message))]
        case .runPhase(let phase): [TraceField("phase", .string(phase))]
        }
    }

    /// Every event name a run can record (environment actions as `env.*`), sorted; coverage
    /// lists them all so a campaign that never reached one says so.
    public static let allNames: [String] = {
        var names = EnvironmentAction.allCases.map { SimEvent.action($0).name }
        names += LifecycleEvent.allCases.map { SimEvent.lifecycle($0).name }
        names += representatives.map(\.name)
        return names.sorted()
    }()

    /// One event of every case other than `.action` and `.lifecycle` (whose names depend on the
    /// payload), in ``kindIndex`` order: the cases' names come from these.
    static let representatives: [SimEvent] = [
        .networkChanged(available: true), .backgroundRefreshChanged(enabled: true),
        .processLaunched(process: 0, inBackground: false), .stateChanged(from: .notRunning, to: .active),
        .sceneWillConnect, .sceneDidDisconnect, .terminated(.forceQuit, openTasks: []),
        .taskBegan(id: 0, name: "", state: .active), .taskBeginDenied(name: ""), .taskEnded(id: 0, name: ""),
        .endedUnknownTask(id: 0), .budgetStarted(deadline: .zero), .expirationCallout(ids: [], early: false),
        .expirationHandlerCalled(id: 0), .expirationHandlersReturned(openIDs: [], elapsed: .zero), .console(""),
        .nothingHeld(reason: ""), .taskRegistered(identifier: "", accepted: true),
        .requestSubmitted(identifier: "", kind: "", error: nil), .requestCancelled(identifier: ""),
        .bgTaskLaunched(identifier: "", task: 0, kind: ""), .bgTaskExpiring(identifier: "", task: 0, hasHandler: true),
        .bgTaskCompleted(identifier: "", task: 0, success: true, repeated: false),
        .bgTaskProgress(identifier: "", task: 0, completed: 0, total: 0), .workStarted(id: 0, name: ""),
        .workFinished(id: 0, name: "", cancelled: false), .violation(invariant: "", message: ""), .runPhase(""),
    ]

    static func list(_ ids: [Int]) -> String {
        ids.map(String.init).joined(separator: ",")
    }
}
