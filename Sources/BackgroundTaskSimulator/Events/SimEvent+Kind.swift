import DeterministicSimulation

extension SimEvent {
    /// The case of an event without its payload: the one place a case gets its number (the
    /// trace digest's case tag, the coverage slot, the run monitor's checker table), its name
    /// and its Perfetto track (``spec``).
    ///
    /// ```swift
    /// SimEvent.taskEnded(id: 3, name: "upload").kind      // .taskEnded
    /// SimEvent.Kind.taskEnded.spec.name                   // "task.end"
    /// ```
    ///
    /// Contract: raw values are explicit and number the kinds 0, 1, 2… without gaps, in the
    /// order of ``SimEvent``'s cases; they are hashed into every trace digest, so an existing
    /// kind's number never changes: a new kind takes the next number. The compiler rejects a
    /// duplicate number; `SimEventDescriptionTests` rejects a gap.
    enum Kind: Int, CaseIterable, Sendable {
        case action = 0
        case networkChanged = 1
        case backgroundRefreshChanged = 2
        case processLaunched = 3
        case stateChanged = 4
        case lifecycle = 5
        case sceneWillConnect = 6
        case sceneDidDisconnect = 7
        case terminated = 8
        case taskBegan = 9
        case taskBeginDenied = 10
        case taskEnded = 11
        case endedUnknownTask = 12
        case budgetStarted = 13
        case expirationCallout = 14
        case expirationHandlerCalled = 15
        case expirationHandlersReturned = 16
        case console = 17
        case nothingHeld = 18
        case taskRegistered = 19
        case requestSubmitted = 20
        case requestCancelled = 21
        case bgTaskLaunched = 22
        case bgTaskExpiring = 23
        case bgTaskCompleted = 24
        case bgTaskProgress = 25
        case workStarted = 26
        case workFinished = 27
        case violation = 28
        case runPhase = 29
        case threads = 30
        case deadlock = 31
        case asyncEscape = 32
        case recordChanged = 33
        case networkRequest = 34
        case probe = 35
        case pushReceived = 36
        case pushCompleted = 37
        case pushExpired = 38
        case modeAssertion = 39
        case backgroundFetch = 40
        case fetchCompleted = 41
        case fileAccess = 42
        case viewAppearance = 43
        case backgroundTransfer = 44
        case backgroundSessionEvents = 45
        case backgroundSessionCompleted = 46
        case backgroundSessionExpired = 47
        case accessoryWake = 48
        case watchdogSuppressed = 49
        case requestDropped = 50
        case dataRace = 51
        case sharedAccess = 52
        case busyLoop = 53
    }

    /// The event's kind, as the first call of ``describe(to:)`` gives it (no second table to keep
    /// in step: specialized for ``Slot``, that call is a switch over the cases).
    var kind: Kind {
        var slot = Slot()
        describe(to: &slot)
        return slot.kind
    }

    /// ``kind``'s number: a hash tag and an array index for per-kind tables.
    var kindIndex: Int { kind.rawValue }

    /// How many values ``kindIndex`` takes.
    static let kindCount = Kind.allCases.count

    /// An event of the given kind (``kindIndex``), for tables built per kind: the kind's
    /// ``KindSpec/example``.
    static func representative(ofKind kind: Int) -> SimEvent {
        Kind.specs[kind].example
    }

    /// The kind of an event and the ordinal of its variant (0 for kinds without one): what
    /// coverage counts and ``kind`` reads.
    struct Slot: SimEventKindVisitor {
        /// Set by the first call of ``describe(to:)``.
        var kind = Kind.action
        var variant = 0

        mutating func kind(_ kind: Kind) { self.kind = kind }
        mutating func variant<Case: EventNamedEnum>(_ value: Case) { variant = value.ordinal }
    }
}
