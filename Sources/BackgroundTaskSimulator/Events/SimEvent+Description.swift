import BackgroundTaskKit
import DeterministicSimulation

extension SimEvent {
    /// Presents the event to `visitor`: its kind, then (for actions and lifecycle callbacks) the
    /// case that names it, then every payload value in declaration order with its trace key.
    /// This is the one switch over the cases: the trace digest, the trace's names and fields,
    /// coverage and the Perfetto trace are visitors of it, so a new case is one branch here
    /// (the switch is exhaustive) plus one ``Kind`` with its ``KindSpec`` row.
    ///
    /// ```swift
    /// var hasher = StableHashingVisitor()
    /// SimEvent.taskEnded(id: 3, name: "upload").describe(to: &hasher)
    /// // kind(.taskEnded), int("id", 3), string("name", "upload")
    /// ```
    ///
    /// Contract: each branch calls ``SimEventVisitor/kind(_:)`` first with its own kind, then
    /// presents every payload value exactly once, in a fixed order. The order and the visitor
    /// method chosen for a value are the digest's byte order: changing either changes every
    /// digest (the pinned-digest tests fail). Generic, so each visitor gets its own specialized
    /// copy with no dynamic dispatch and no allocation beyond what the visitor does itself.
    ///
    /// Always inlined: specialized for a visitor that reads only the kind (``Slot``), it folds
    /// into its caller as one jump on the case, as a hand-written switch would (the run monitor's
    /// per-event ``kindIndex``, coverage's slot); as a call, it cost 2% of a campaign's
    /// instructions. Longer than our usual function on purpose: one exhaustive switch with no
    /// `default` is what makes a forgotten case a compile error.
    @inline(__always)
    func describe<Visitor: SimEventVisitor>(to visitor: inout Visitor) {
        switch self {
        case .action(let action):
            visitor.kind(.action)
            visitor.variant(action)
        case .networkChanged(let available):
            visitor.kind(.networkChanged)
            visitor.bool("available", available)
        case .backgroundRefreshChanged(let enabled):
            visitor.kind(.backgroundRefreshChanged)
            visitor.bool("enabled", enabled)
        case .processLaunched(let process, let inBackground):
            visitor.kind(.processLaunched)
            visitor.int("process", Int64(process))
            visitor.bool("inBackground", inBackground)
        case .stateChanged(let from, let to):
            visitor.kind(.stateChanged)
            visitor.enumName("from", from)
            visitor.enumName("to", to)
        case .lifecycle(let event):
            visitor.kind(.lifecycle)
            visitor.variant(event)
        case .sceneWillConnect:
            visitor.kind(.sceneWillConnect)
        case .sceneDidDisconnect:
            visitor.kind(.sceneDidDisconnect)
        case .terminated(let reason, let open):
            visitor.kind(.terminated)
            visitor.text("reason", reason)
            visitor.ids("openTasks", open)
        case .taskBegan(let id, let name, let state):
            visitor.kind(.taskBegan)
            visitor.int("id", Int64(id))
            visitor.string("name", name)
            visitor.enumName("state", state)
        case .taskBeginDenied(let name):
            visitor.kind(.taskBeginDenied)
            visitor.string("name", name)
        case .taskEnded(let id, let name):
            visitor.kind(.taskEnded)
            visitor.int("id", Int64(id))
            visitor.string("name", name)
        case .endedUnknownTask(let id):
            visitor.kind(.endedUnknownTask)
            visitor.int("id", Int64(id))
        case .budgetStarted(let deadline):
            visitor.kind(.budgetStarted)
            visitor.time("deadline", deadline)
        case .expirationCallout(let ids, let early):
            visitor.kind(.expirationCallout)
            visitor.ids("ids", ids)
            visitor.bool("early", early)
        case .expirationHandlerCalled(let id):
            visitor.kind(.expirationHandlerCalled)
            visitor.int("id", Int64(id))
        case .expirationHandlersReturned(let open, let elapsed):
            visitor.kind(.expirationHandlersReturned)
            visitor.ids("stillOpen", open)
            visitor.duration("elapsed", elapsed)
        case .console(let text):
            visitor.kind(.console)
            visitor.string("message", text)
        case .nothingHeld(let reason):
            visitor.kind(.nothingHeld)
            visitor.string("after", reason)
        case .taskRegistered(let identifier, let accepted):
            visitor.kind(.taskRegistered)
            visitor.string("identifier", identifier)
            visitor.bool("accepted", accepted)
        case .requestSubmitted(let identifier, let kind, let error):
            visitor.kind(.requestSubmitted)
            visitor.string("identifier", identifier)
            visitor.string("kind", kind)
            visitor.string("error", error ?? "none")
        case .requestCancelled(let identifier):
            visitor.kind(.requestCancelled)
            visitor.string("identifier", identifier)
        case .bgTaskLaunched(let identifier, let task, let kind):
            visitor.kind(.bgTaskLaunched)
            visitor.string("identifier", identifier)
            visitor.int("task", Int64(task))
            visitor.string("kind", kind)
        case .bgTaskExpiring(let identifier, let task, let hasHandler):
            visitor.kind(.bgTaskExpiring)
            visitor.string("identifier", identifier)
            visitor.int("task", Int64(task))
            visitor.bool("hasHandler", hasHandler)
        case .bgTaskCompleted(let identifier, let task, let success, let repeated):
            visitor.kind(.bgTaskCompleted)
            visitor.string("identifier", identifier)
            visitor.int("task", Int64(task))
            visitor.bool("success", success)
            visitor.bool("repeated", repeated)
        case .bgTaskProgress(let identifier, let task, let completed, let total):
            visitor.kind(.bgTaskProgress)
            visitor.string("identifier", identifier)
            visitor.int("task", Int64(task))
            visitor.int("completed", completed)
            visitor.int("total", total)
        case .workStarted(let id, let name):
            visitor.kind(.workStarted)
            visitor.int("work", Int64(id))
            visitor.string("name", name)
        case .workFinished(let id, let name, let cancelled):
            visitor.kind(.workFinished)
            visitor.int("work", Int64(id))
            visitor.string("name", name)
            visitor.bool("cancelled", cancelled)
        case .violation(let invariant, let message):
            visitor.kind(.violation)
            visitor.string("invariant", invariant)
            visitor.string("message", message)
        case .runPhase(let phase):
            visitor.kind(.runPhase)
            visitor.string("phase", phase)
        case .threads(let configuration):
            visitor.kind(.threads)
            visitor.string("configuration", configuration)
        case .deadlock(let threads):
            visitor.kind(.deadlock)
            visitor.string("threads", threads)
        case .busyLoop(let loop):
            visitor.kind(.busyLoop)
            visitor.string("loop", loop)
        case .asyncEscape(let escape):
            visitor.kind(.asyncEscape)
            visitor.string("escape", escape)
        case .recordChanged(let record, let unsavedChanges):
            visitor.kind(.recordChanged)
            visitor.string("record", record)
            visitor.int("unsaved", Int64(unsavedChanges))
        case .networkRequest(let request, let name, let work, let outcome):
            visitor.kind(.networkRequest)
            visitor.int("request", Int64(request))
            visitor.string("name", name)
            visitor.int("work", Int64(work))
            visitor.string("outcome", outcome)
        case .probe(let name):
            visitor.kind(.probe)
            visitor.string("name", name)
        case .pushReceived(let push, let outcome):
            visitor.kind(.pushReceived)
            visitor.int("push", Int64(push))
            visitor.string("outcome", outcome)
        case .pushCompleted(let push, let result, let repeated):
            visitor.kind(.pushCompleted)
            visitor.int("push", Int64(push))
            visitor.string("result", result)
            visitor.bool("repeated", repeated)
        case .pushExpired(let push, let terminates):
            visitor.kind(.pushExpired)
            visitor.int("push", Int64(push))
            visitor.bool("terminates", terminates)
        case .modeAssertion(let mode, let held):
            visitor.kind(.modeAssertion)
            visitor.string("mode", mode)
            visitor.bool("held", held)
        case .backgroundFetch(let fetch, let phase):
            visitor.kind(.backgroundFetch)
            visitor.int("fetch", Int64(fetch))
            visitor.string("phase", phase)
        case .fetchCompleted(let fetch, let result, let repeated):
            visitor.kind(.fetchCompleted)
            visitor.int("fetch", Int64(fetch))
            visitor.string("result", result)
            visitor.bool("repeated", repeated)
        case .fileAccess(let file, let operation, let protection, let work, let outcome):
            visitor.kind(.fileAccess)
            visitor.string("file", file)
            visitor.string("operation", operation)
            visitor.string("protection", protection)
            visitor.int("work", Int64(work))
            visitor.string("outcome", outcome)
        case .viewAppearance(let visible):
            visitor.kind(.viewAppearance)
            visitor.bool("visible", visible)
        case .backgroundTransfer(let session, let task, let phase):
            visitor.kind(.backgroundTransfer)
            visitor.string("session", session)
            visitor.int("task", Int64(task))
            visitor.string("phase", phase)
        case .backgroundSessionEvents(let session, let wake, let phase):
            visitor.kind(.backgroundSessionEvents)
            visitor.string("session", session)
            visitor.int("wake", Int64(wake))
            visitor.string("phase", phase)
        case .backgroundSessionCompleted(let session, let wake, let onMain, let afterEvents, let repeated):
            visitor.kind(.backgroundSessionCompleted)
            visitor.string("session", session)
            visitor.int("wake", Int64(wake))
            visitor.bool("onMain", onMain)
            visitor.bool("afterEvents", afterEvents)
            visitor.bool("repeated", repeated)
        case .backgroundSessionExpired(let session, let wake, let eventsDelivered, let terminates):
            visitor.kind(.backgroundSessionExpired)
            visitor.string("session", session)
            visitor.int("wake", Int64(wake))
            visitor.bool("eventsDelivered", eventsDelivered)
            visitor.bool("terminates", terminates)
        case .accessoryWake(let mode, let phase):
            visitor.kind(.accessoryWake)
            visitor.string("mode", mode)
            visitor.string("phase", phase)
        case .watchdogSuppressed(let detail):
            visitor.kind(.watchdogSuppressed)
            visitor.string("detail", detail)
        case .requestDropped(let identifier):
            visitor.kind(.requestDropped)
            visitor.string("identifier", identifier)
        case .dataRace(let race):
            visitor.kind(.dataRace)
            visitor.string("race", race)
        case .sharedAccess(let state, let write):
            visitor.kind(.sharedAccess)
            visitor.string("state", state)
            visitor.string("access", write ? "write" : "read")
        }
    }

}
