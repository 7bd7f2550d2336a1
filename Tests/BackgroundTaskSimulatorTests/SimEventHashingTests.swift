@testable import BackgroundTaskSimulator
import BackgroundTaskKit
import DeterministicSimulation
import Testing

@Suite struct SimEventHashingTests {
    static func digest(_ event: SimEvent) -> UInt64 {
        var hasher = StableHasher()
        event.hash(into: &hasher)
        return hasher.finalize()
    }

    /// One event of every kind (each kind's ``SimEvent/KindSpec/example``).
    static let examples = SimEvent.Kind.allCases.map(\.spec.example)

    /// One event of every kind with realistic payloads, and its content hash as the hand-written
    /// `hash(into:)` of every case computed it before events were described once (transcribed
    /// word by word into a separate script): the description's order and value methods feed the
    /// same words, kind by kind.
    static let pinned: [(SimEvent, UInt64)] = [
        (.action(.home), 0x02d95eb6495b0e6f),
        (.networkChanged(available: false), 0xaafe2f9ccd02e5f8),
        (.backgroundRefreshChanged(enabled: true), 0xed3abf533044c166),
        (.processLaunched(process: 2, inBackground: true), 0x97a4942f86931372),
        (.stateChanged(from: .background, to: .suspended), 0xdf3304f5ab12d6d9),
        (.lifecycle(.didEnterBackground), 0x3351d8fff473f463),
        (.sceneWillConnect, 0x864d01b863415551),
        (.sceneDidDisconnect, 0x5de338fb348a52a6),
        (.terminated(.watchdog(detail: "expiration"), openTasks: [1, 3]), 0xa503fa3aaaeb9d82),
        (.taskBegan(id: 4, name: "upload", state: .background), 0x664c9a3784069879),
        (.taskBeginDenied(name: "sync"), 0xf83bd9f900989fe4),
        (.taskEnded(id: 4, name: "upload"), 0xbf3f11be3abc6c79),
        (.endedUnknownTask(id: 99), 0x3586ca09a64f44cd),
        (.budgetStarted(deadline: .seconds(30)), 0xb26e98fced0d8ed9),
        (.expirationCallout(ids: [1, 2], early: true), 0xb533e4678d062c8f),
        (.expirationHandlerCalled(id: 7), 0x8895db59b0f992f5),
        (.expirationHandlersReturned(openIDs: [5], elapsed: .milliseconds(250)), 0x965cc706367e63c0),
        (.console("hello, world"), 0x7c1dda3e8b502e75),
        (.nothingHeld(reason: "taskEnded"), 0x94fad36f32d1fac6),
        (.taskRegistered(identifier: "com.example.refresh", accepted: false), 0xf30d555da9855534),
        (.requestSubmitted(identifier: "com.example.refresh", kind: "refresh", error: nil), 0x197d0addf2eb1ac8),
        (.requestSubmitted(identifier: "r", kind: "processing", error: "unavailable"), 0x8e653d55cc3a81af),
        (.requestCancelled(identifier: "r"), 0xfaf6712757ed38e2),
        (.bgTaskLaunched(identifier: "r", task: 3, kind: "processing"), 0x165299cc2ae7887f),
        (.bgTaskExpiring(identifier: "r", task: 3, hasHandler: false), 0xce9cc0fd35df97b6),
        (.bgTaskCompleted(identifier: "r", task: 3, success: true, repeated: true), 0xafe9a0aa1e39916b),
        (.bgTaskProgress(identifier: "r", task: 3, completed: 5, total: 10), 0xd9de976c2dc6bdc3),
        (.workStarted(id: 8, name: "flush"), 0x5aec6fdd9337ef3f),
        (.workFinished(id: 8, name: "flush", cancelled: true), 0xdac333c3ab13131f),
        (.violation(invariant: "no-double-end", message: "task 3 ended twice"), 0x4915d2066e8ee97f),
        (.runPhase("drain"), 0x193ce87aee635a49),
        (.threads("pct depth 2 of 1000 points"), 0x238dd3cf3a694965),
        (.deadlock(#"thread "p1.main" waits for sync on queue "p1.main" (itself)"#), 0x34f2230b57ee8f4b),
        (.asyncEscape("at 2.000000s on simulated queue 'p1.main': a job reached Swift's global executor"), 0xcd4791e3d12bd449),
        (.recordChanged(record: "upload-queue", unsavedChanges: 2), 0xaa01d9caa82fe8e6),
        (.networkRequest(request: 2, name: "send", work: 7, outcome: "networkConnectionLost"), 0x9ccaa05addf215a7),
        (.probe("upload-cut-by-expiry"), 0xedd61a92c54763ee),
        (.pushReceived(push: 2, outcome: "throttled"), 0xeb3c10349abb9bc9),
        (.pushCompleted(push: 2, result: "newData", repeated: true), 0xbf3ac80958fe7b9d),
        (.pushExpired(push: 2, terminates: true), 0x3cc1878233de2dd6),
        (.modeAssertion(mode: "audio", held: true), 0xd2aa2b6137438cd7),
        (.backgroundFetch(fetch: 2, phase: "expire"), 0x6f108b87372c7716),
        (.fetchCompleted(fetch: 2, result: "noData", repeated: true), 0x6e9f763cc9cedff7),
        (.fileAccess(file: "articles.json", operation: "write", protection: "complete", work: 3, outcome: "protectedDataUnavailable"), 0xeb42ba0a742e32a4),
        (.viewAppearance(visible: true), 0xb2ed2ce882fc8cca),
        (.backgroundTransfer(session: "uploads", task: 2, phase: "cancel"), 0xa0ac8d8063db35f1),
        (.backgroundSessionEvents(session: "uploads", wake: 1, phase: "handleEvents"), 0x8a2c1fb5a739f0b4),
        (.backgroundSessionCompleted(session: "uploads", wake: 1, onMain: true, afterEvents: false, repeated: false), 0xd6f99414821b3ca0),
        (.backgroundSessionExpired(session: "uploads", wake: 2, eventsDelivered: false, terminates: true), 0x3c3468f7a1bbbd64),
        (.accessoryWake(mode: "bluetooth-central", phase: "wake"), 0xbcdf7bf55161ebf0),
        (.watchdogSuppressed(detail: "launch took 25s (A10.3)"), 0x3f738b8f78e9c566),
        (.requestDropped(identifier: "com.example.refresh"), 0x87d6a533d9a25e58),
        // Added after events were described once (issue 36): each pinned at its first value.
        (.dataRace(#"write of "didComplete" on p1.global#1 and read on p1.main are unordered"#), 0x820c1b3024c86cc2),
        (.sharedAccess(state: "receipt-upload didComplete", write: true), 0xe3b36c6c8c61f2ed),
        (.busyLoop("10000 steps from 86.139713s to 86.208262s without waiting for time to pass"), 0xf72250e2a2d5500f),
    ]

    @Test("every kind hashes as it did before it was described once")
    func everyKindHashesAsPinned() {
        #expect(Set(Self.pinned.map(\.0.kind)).count == SimEvent.kindCount)
        for (event, expected) in Self.pinned {
            #expect(Self.digest(event) == expected, "\(event)")
            #expect(event.contentHash == expected, "\(event)")
        }
    }

    @Test func everyEventNameIsListedOnce() {
        #expect(Set(SimEvent.allNames).count == SimEvent.allNames.count)
        #expect(SimEvent.allNames == SimEvent.allNames.sorted())
        #expect(SimEvent.allNames.contains("env.home"))
        #expect(SimEvent.allNames.contains("lifecycle.didEnterBackground"))
        #expect(SimEvent.allNames.contains("task.end"))
    }

    /// The precomputed name tables feed exactly what hashing the raw value as a string feeds, so
    /// digests did not change when they replaced it; their indices follow `allCases`.
    @Test func nameTablesHashLikeTheirStrings() {
        func table(_ names: CaseNames, _ index: Int) -> UInt64 {
            table(names.hashWords, index)
        }
        func table(_ names: StableHashStringTable, _ index: Int) -> UInt64 {
            var hasher = StableHasher()
            names.combine(index, into: &hasher)
            return hasher.finalize()
        }
        func string(_ text: String) -> UInt64 {
            var hasher = StableHasher()
            hasher.combine(text)
            return hasher.finalize()
        }
        #expect(EnvironmentAction.caseNames.count == EnvironmentAction.allCases.count)
        for action in EnvironmentAction.allCases {
            #expect(table(EnvironmentAction.caseNames, action.ordinal) == string(action.rawValue))
        }
        #expect(AppProcessState.caseNames.count == AppProcessState.allCases.count)
        for (position, state) in AppProcessState.allCases.enumerated() {
            #expect(state.ordinal == position)
            #expect(table(AppProcessState.caseNames, state.ordinal) == string(state.rawValue))
        }
        #expect(LifecycleEvent.caseNames.count == LifecycleEvent.allCases.count)
        for (position, event) in LifecycleEvent.allCases.enumerated() {
            #expect(event.ordinal == position)
            #expect(table(LifecycleEvent.caseNames, event.ordinal) == string(event.rawValue))
        }
        let edges = ["", "a", "abcdefg", "abcdefgh", "abcdefghi", "é✓ unicode", String(repeating: "x", count: 33)]
        let edgeTable = StableHashStringTable(edges)
        for (index, text) in edges.enumerated() {
            #expect(table(edgeTable, index) == string(text))
        }
    }

    /// `contentHash` (precomputed for enum-only events) equals a fresh `hash(into:)`, finalized,
    /// for every such event and for every example of the other kinds.
    @Test func contentHashMatchesAFreshHash() {
        var events: [SimEvent] = Self.examples
        events += EnvironmentAction.allCases.map { .action($0) }
        events += LifecycleEvent.allCases.map { .lifecycle($0) }
        for from in AppProcessState.allCases {
            for to in AppProcessState.allCases { events.append(.stateChanged(from: from, to: to)) }
        }
        for flag in [false, true] {
            events.append(.networkChanged(available: flag))
            events.append(.backgroundRefreshChanged(enabled: flag))
        }
        events += [.sceneWillConnect, .sceneDidDisconnect, .taskEnded(id: 3, name: "upload")]
        for event in events {
            #expect(event.contentHash == Self.digest(event), "\(event)")
        }
    }

    @Test func examplesHashApart() {
        let digests = Self.examples.map(Self.digest)
        #expect(Set(digests).count == digests.count)
    }

    @Test func everyPayloadValueChangesTheHash() {
        let variants: [SimEvent] = [
            .taskEnded(id: 1, name: "a"), .taskEnded(id: 2, name: "a"), .taskEnded(id: 1, name: "b"),
            .taskBegan(id: 1, name: "a", state: .background), .taskBegan(id: 1, name: "a", state: .active),
            .action(.home), .action(.lock), .lifecycle(.didEnterBackground), .lifecycle(.willEnterForeground),
            .expirationCallout(ids: [1, 2], early: false), .expirationCallout(ids: [12], early: false),
            .expirationCallout(ids: [1, 2], early: true), .expirationCallout(ids: [], early: false),
            .requestSubmitted(identifier: "r", kind: "refresh", error: nil),
            .requestSubmitted(identifier: "r", kind: "refresh", error: "unavailable"),
            .bgTaskCompleted(identifier: "r", task: 1, success: true, repeated: false),
            .bgTaskCompleted(identifier: "r", task: 1, success: true, repeated: true),
            .budgetStarted(deadline: .seconds(30)), .budgetStarted(deadline: .seconds(31)),
        ]
        let digests = variants.map(Self.digest)
        #expect(Set(digests).count == digests.count)
    }
}
