extension SimEvent {
    /// What a kind of event is called, what one looks like and where it goes in a Perfetto
    /// trace: one row per kind in ``Kind/spec``. With the kind's branch of
    /// ``SimEvent/describe(to:)`` (its payload), this is everything the outputs derive from.
    ///
    /// ```swift
    /// KindSpec(name: "task.end", example: .taskEnded(id: 0, name: ""),
    ///          perfetto: .taskEnds(.uikitTask, id: "id"))
    /// ```
    ///
    /// Contract: `example` is of the kind the row describes; a kind whose events are named by a
    /// payload enum (`env.home`) is declared with `namePrefix:` and presents that enum as its
    /// first value (``SimEventVisitor/variant(_:_:)``); the field keys a Perfetto track names
    /// are fields of the kind. `SimEventDescriptionTests` checks all three for every kind.
    struct KindSpec: Sendable {
        /// The event name (`task.end`), or the prefix of it (`env.`) when ``isNamedByVariant``.
        let name: String
        /// Whether an event's name is ``name`` followed by its variant's case name.
        let isNamedByVariant: Bool
        /// An event of this kind: asked by tables built per kind (which checkers observe it,
        /// coverage slot names, payload-free content hashes).
        let example: SimEvent
        /// How a Perfetto trace shows events of this kind.
        let perfetto: PerfettoTrack

        /// A kind with one name.
        init(name: String, example: SimEvent, perfetto: PerfettoTrack = .instant) {
            self.name = name
            isNamedByVariant = false
            self.example = example
            self.perfetto = perfetto
        }

        /// A kind whose events are named `namePrefix` + the case name of their variant.
        init(namePrefix: String, example: SimEvent, perfetto: PerfettoTrack = .instant) {
            name = namePrefix
            isNamedByVariant = true
            self.example = example
            self.perfetto = perfetto
        }
    }
}

extension SimEvent.Kind {
    /// This kind's row: its name, an example event and its Perfetto track. A new kind must add
    /// one here (the switch is exhaustive).
    var spec: SimEvent.KindSpec {
        typealias Spec = SimEvent.KindSpec
        return switch self {
        case .action: Spec(namePrefix: "env.", example: .action(.launch))
        case .networkChanged: Spec(name: "env.network", example: .networkChanged(available: true))
        case .backgroundRefreshChanged:
            Spec(name: "env.backgroundRefresh", example: .backgroundRefreshChanged(enabled: true))
        case .processLaunched:
            Spec(name: "process.launch", example: .processLaunched(process: 0, inBackground: false),
                 perfetto: .process(number: "process"))
        case .stateChanged:
            Spec(name: "app.state", example: .stateChanged(from: .notRunning, to: .active), perfetto: .appState(name: "to"))
        case .lifecycle: Spec(namePrefix: "lifecycle.", example: .lifecycle(.didFinishLaunching))
        case .sceneWillConnect: Spec(name: "scene.willConnect", example: .sceneWillConnect)
        case .sceneDidDisconnect: Spec(name: "scene.didDisconnect", example: .sceneDidDisconnect)
        case .terminated:
            Spec(name: "process.terminated", example: .terminated(.forceQuit, openTasks: []), perfetto: .terminates)
        case .taskBegan:
            Spec(name: "task.begin", example: .taskBegan(id: 0, name: "", state: .active),
                 perfetto: .taskBegins(.uikitTask, id: "id", name: "name"))
        case .taskBeginDenied: Spec(name: "task.beginDenied", example: .taskBeginDenied(name: ""))
        case .taskEnded: Spec(name: "task.end", example: .taskEnded(id: 0, name: ""), perfetto: .taskEnds(.uikitTask, id: "id"))
        case .endedUnknownTask: Spec(name: "task.endUnknown", example: .endedUnknownTask(id: 0))
        case .budgetStarted: Spec(name: "budget.start", example: .budgetStarted(deadline: .zero))
        case .expirationCallout: Spec(name: "task.expirationCallout", example: .expirationCallout(ids: [], early: false))
        case .expirationHandlerCalled: Spec(name: "task.expirationHandler", example: .expirationHandlerCalled(id: 0))
        case .expirationHandlersReturned:
            Spec(name: "task.expirationHandlersReturned", example: .expirationHandlersReturned(openIDs: [], elapsed: .zero))
        case .console: Spec(name: "console", example: .console(""))
        case .nothingHeld: Spec(name: "app.nothingHeld", example: .nothingHeld(reason: ""))
        case .taskRegistered: Spec(name: "bgtask.register", example: .taskRegistered(identifier: "", accepted: true))
        case .requestSubmitted:
            Spec(name: "bgtask.submit", example: .requestSubmitted(identifier: "", kind: "", error: nil))
        case .requestCancelled: Spec(name: "bgtask.cancel", example: .requestCancelled(identifier: ""))
        case .bgTaskLaunched:
            Spec(name: "bgtask.launch", example: .bgTaskLaunched(identifier: "", task: 0, kind: ""),
                 perfetto: .taskBegins(.bgTask, id: "task", name: "identifier"))
        case .bgTaskExpiring:
            Spec(name: "bgtask.expire", example: .bgTaskExpiring(identifier: "", task: 0, hasHandler: true))
        case .bgTaskCompleted:
            Spec(name: "bgtask.complete", example: .bgTaskCompleted(identifier: "", task: 0, success: true, repeated: false),
                 perfetto: .taskEnds(.bgTask, id: "task", unlessTrue: "repeated"))
        case .bgTaskProgress:
            Spec(name: "bgtask.progress", example: .bgTaskProgress(identifier: "", task: 0, completed: 0, total: 0))
        case .workStarted: Spec(name: "work.start", example: .workStarted(id: 0, name: ""))
        case .workFinished: Spec(name: "work.finish", example: .workFinished(id: 0, name: "", cancelled: false))
        case .violation:
            Spec(name: "violation", example: .violation(invariant: "", message: ""), perfetto: .globalInstant(label: "invariant"))
        case .runPhase: Spec(name: "run.phase", example: .runPhase(""))
        case .threads: Spec(name: "run.threads", example: .threads(""))
        case .deadlock: Spec(name: "threads.deadlock", example: .deadlock(""), perfetto: .globalInstant(label: "threads"))
        case .busyLoop: Spec(name: "app.busyLoop", example: .busyLoop(""), perfetto: .globalInstant(label: "loop"))
        case .asyncEscape:
            Spec(name: "async.escape", example: .asyncEscape(""), perfetto: .globalInstant(label: "escape"))
        case .recordChanged: Spec(name: "data.record", example: .recordChanged(record: "", unsavedChanges: 0))
        case .networkRequest:
            Spec(name: "network.request", example: .networkRequest(request: 0, name: "", work: 0, outcome: ""))
        case .probe: Spec(name: "probe", example: .probe(""))
        case .pushReceived: Spec(name: "push.receive", example: .pushReceived(push: 0, outcome: ""))
        case .pushCompleted: Spec(name: "push.complete", example: .pushCompleted(push: 0, result: "", repeated: false))
        case .pushExpired: Spec(name: "push.expire", example: .pushExpired(push: 0, terminates: false))
        case .modeAssertion: Spec(name: "app.modeAssertion", example: .modeAssertion(mode: "", held: true))
        case .backgroundFetch: Spec(name: "fetch", example: .backgroundFetch(fetch: 0, phase: ""))
        case .fetchCompleted: Spec(name: "fetch.complete", example: .fetchCompleted(fetch: 0, result: "", repeated: false))
        case .fileAccess:
            Spec(name: "file", example: .fileAccess(file: "", operation: "", protection: "", work: 0, outcome: ""))
        case .viewAppearance: Spec(name: "view", example: .viewAppearance(visible: false))
        case .backgroundTransfer:
            Spec(name: "urlsession.transfer", example: .backgroundTransfer(session: "", task: 0, phase: ""))
        case .backgroundSessionEvents:
            Spec(name: "urlsession.events", example: .backgroundSessionEvents(session: "", wake: 0, phase: ""))
        case .backgroundSessionCompleted:
            Spec(name: "urlsession.complete", example: .backgroundSessionCompleted(
                session: "", wake: 0, onMain: true, afterEvents: true, repeated: false))
        case .backgroundSessionExpired:
            Spec(name: "urlsession.expire", example: .backgroundSessionExpired(
                session: "", wake: 0, eventsDelivered: false, terminates: false))
        case .accessoryWake: Spec(name: "accessory.wake", example: .accessoryWake(mode: "", phase: ""))
        case .watchdogSuppressed: Spec(name: "process.watchdogSuppressed", example: .watchdogSuppressed(detail: ""))
        case .requestDropped: Spec(name: "bgtask.dropped", example: .requestDropped(identifier: ""))
        case .dataRace: Spec(name: "threads.race", example: .dataRace(""), perfetto: .globalInstant(label: "race"))
        case .sharedAccess: Spec(name: "threads.access", example: .sharedAccess(state: "", write: false))
        }
    }

    /// ``spec`` of every kind, by raw value, built once (trace printing reads a kind's name per
    /// event).
    static let specs: [SimEvent.KindSpec] = {
        precondition(allCases.map(\.rawValue) == Array(allCases.indices),
                     "SimEvent.Kind's raw values must number the kinds 0, 1, 2… without gaps")
        return allCases.map(\.spec)
    }()
}
