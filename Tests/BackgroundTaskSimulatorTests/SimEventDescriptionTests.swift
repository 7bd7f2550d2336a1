@testable import BackgroundTaskSimulator
import BackgroundTaskKit
import DeterministicSimulation
import Testing

/// Every event kind is described once (its ``SimEvent/Kind``, its ``SimEvent/KindSpec`` row and
/// its branch of `describe(to:)`), and every output derives from that: these check that a kind's
/// description reaches the digest, the coverage slots, the trace fields and the Perfetto track,
/// so a new kind cannot be half added.
@Suite struct SimEventDescriptionTests {
    static let kinds = SimEvent.Kind.allCases

    @Test("kinds are numbered 0, 1, 2… without gaps, and each example is of its kind")
    func kindsAreNumberedAndExemplified() {
        #expect(Self.kinds.map(\.rawValue) == Array(0..<Self.kinds.count))
        #expect(SimEvent.kindCount == Self.kinds.count)
        for kind in Self.kinds {
            let example = kind.spec.example
            #expect(example.kind == kind, "the example of \(kind) is \(example)")
            #expect(SimEvent.representative(ofKind: kind.rawValue) == example)
            #expect(SimEvent.Shape(of: example).kind == kind)
        }
    }

    @Test("every kind has its own names, and a kind named by a variant presents exactly one, first")
    func everyKindIsNamed() {
        var seen: [String] = []
        for kind in Self.kinds {
            let spec = kind.spec
            let shape = SimEvent.Shape(of: spec.example)
            let variants = shape.fields.indices.filter {
                if case .variant = shape.fields[$0].value { return true } else { return false }
            }
            #expect(variants == (spec.isNamedByVariant ? [0] : []), "\(kind)")
            #expect(!spec.name.isEmpty, "\(kind)")
            #expect(kind.eventNames.allSatisfy { $0.hasPrefix(spec.name) }, "\(kind)")
            #expect(kind.eventNames.contains(spec.example.name), "\(kind)")
            seen += kind.eventNames
        }
        #expect(Set(seen).count == seen.count, "an event name is used by two kinds")
        #expect(SimEvent.allNames == seen.sorted())
    }

    @Test("every value of a kind has its own trace key, and the trace shows each one")
    func everyValueReachesTheTrace() {
        for kind in Self.kinds {
            let example = kind.spec.example
            let keys = SimEvent.Shape(of: example).fields.map(\.key).filter { !$0.isEmpty }
            #expect(keys.allSatisfy { !$0.isEmpty && $0 != "t" && $0 != "event" }, "\(kind)")
            #expect(Set(keys).count == keys.count, "\(kind) presents a key twice")
            #expect(example.fields.map(\.key) == keys, "\(kind)")
            #expect(example.traceRecord.name == example.name)
        }
    }

    /// How ``SimEventHashingTests/pinned``'s events print (name, then `key=value` fields), as the
    /// hand-written `name` and `fields` of every case printed them before events were described
    /// once: traces, reports and Perfetto arguments are unchanged kind by kind.
    static let pinnedLines: [String] = [
        #"env.home"#,
        #"env.network available=false"#,
        #"env.backgroundRefresh enabled=true"#,
        #"process.launch process=2 inBackground=true"#,
        #"app.state from="background" to="suspended""#,
        #"lifecycle.didEnterBackground"#,
        #"scene.willConnect"#,
        #"scene.didDisconnect"#,
        #"process.terminated reason="watchdog (0x8badf00d): expiration" openTasks="1,3""#,
        #"task.begin id=4 name="upload" state="background""#,
        #"task.beginDenied name="sync""#,
        #"task.end id=4 name="upload""#,
        #"task.endUnknown id=99"#,
        #"budget.start deadline="30.000000s""#,
        #"task.expirationCallout ids="1,2" early=true"#,
        #"task.expirationHandler id=7"#,
        #"task.expirationHandlersReturned stillOpen="5" elapsed="0.250000s""#,
        #"console message="hello, world""#,
        #"app.nothingHeld after="taskEnded""#,
        #"bgtask.register identifier="com.example.refresh" accepted=false"#,
        #"bgtask.submit identifier="com.example.refresh" kind="refresh" error="none""#,
        #"bgtask.submit identifier="r" kind="processing" error="unavailable""#,
        #"bgtask.cancel identifier="r""#,
        #"bgtask.launch identifier="r" task=3 kind="processing""#,
        #"bgtask.expire identifier="r" task=3 hasHandler=false"#,
        #"bgtask.complete identifier="r" task=3 success=true repeated=true"#,
        #"bgtask.progress identifier="r" task=3 completed=5 total=10"#,
        #"work.start work=8 name="flush""#,
        #"work.finish work=8 name="flush" cancelled=true"#,
        #"violation invariant="no-double-end" message="task 3 ended twice""#,
        #"run.phase phase="drain""#,
        #"run.threads configuration="pct depth 2 of 1000 points""#,
        #"threads.deadlock threads="thread \"p1.main\" waits for sync on queue \"p1.main\" (itself)""#,
        #"async.escape escape="at 2.000000s on simulated queue 'p1.main': a job reached Swift's global executor""#,
        #"data.record record="upload-queue" unsaved=2"#,
        #"network.request request=2 name="send" work=7 outcome="networkConnectionLost""#,
        #"probe name="upload-cut-by-expiry""#,
        #"push.receive push=2 outcome="throttled""#,
        #"push.complete push=2 result="newData" repeated=true"#,
        #"push.expire push=2 terminates=true"#,
        #"app.modeAssertion mode="audio" held=true"#,
        #"fetch fetch=2 phase="expire""#,
        #"fetch.complete fetch=2 result="noData" repeated=true"#,
        #"file file="articles.json" operation="write" protection="complete" work=3 outcome="protectedDataUnavailable""#,
        #"view visible=true"#,
        #"urlsession.transfer session="uploads" task=2 phase="cancel""#,
        #"urlsession.events session="uploads" wake=1 phase="handleEvents""#,
        #"urlsession.complete session="uploads" wake=1 onMain=true afterEvents=false repeated=false"#,
        #"urlsession.expire session="uploads" wake=2 eventsDelivered=false terminates=true"#,
        #"accessory.wake mode="bluetooth-central" phase="wake""#,
        #"process.watchdogSuppressed detail="launch took 25s (A10.3)""#,
        #"bgtask.dropped identifier="com.example.refresh""#,
        #"threads.race race="write of \"didComplete\" on p1.global#1 and read on p1.main are unordered""#,
        #"threads.access state="receipt-upload didComplete" access="write""#,
        #"app.busyLoop loop="10000 steps from 86.139713s to 86.208262s without waiting for time to pass""#,
    ]

    @Test("every kind prints as it did before it was described once")
    func everyKindPrintsAsPinned() {
        let events = SimEventHashingTests.pinned.map(\.0)
        #expect(events.count == Self.pinnedLines.count)
        for (event, expected) in zip(events, Self.pinnedLines) {
            let line = ([event.name] + event.fields.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
            #expect(line == expected)
        }
    }

    @Test("every Perfetto track reads fields its kind has, with the type it expects")
    func everyTrackReadsItsFields() {
        for kind in Self.kinds {
            let fields = kind.spec.example.fields
            for (key, type) in kind.spec.perfetto.fieldsRead {
                let value = fields.first { $0.key == key }?.value
                let found: PerfettoTrack.FieldType? = switch value {
                case .int?: .int
                case .string?: .string
                case .bool?: .bool
                case nil: nil
                }
                #expect(found == type, "\(kind)'s Perfetto track reads '\(key)' as \(type), found \(String(describing: value))")
            }
        }
    }

    @Test("a Perfetto trace of one event of every kind shows every kind")
    func perfettoShowsEveryKind() throws {
        // A UIKit and a BGTask slice, the app state, then one of every kind as an instant.
        var trace: [SimEvent] = [.processLaunched(process: 1, inBackground: false),
                                 .stateChanged(from: .notRunning, to: .active),
                                 .taskBegan(id: 4, name: "upload", state: .active),
                                 .bgTaskLaunched(identifier: "refresh", task: 2, kind: "refresh")]
        trace += Self.kinds.map(\.spec.example)
        let entries = trace.enumerated().map { TraceEntry(time: .seconds(Int64($0.offset)), event: $0.element) }
        let json = PerfettoTrace.json(entries)
        let events = try #require(json["traceEvents"]?.arrayValue)
        let names = events.compactMap { $0["name"]?.stringValue }
        let threads = events.filter { $0["ph"]?.stringValue == "M" }.compactMap { $0["args"]?["name"]?.stringValue }
        for kind in Self.kinds {
            let example = kind.spec.example
            let shown: Bool = switch kind.spec.perfetto {
            case .instant, .terminates: names.contains(example.name)
            case .globalInstant(let label): names.contains("\(example.name): \(Self.string(label, in: example) ?? "?")")
            case .process: threads.contains("task 1.4")        // the UIKit task's thread is numbered by it
            case .appState: names.contains("active")
            case .taskBegins(.uikitTask, _, _), .taskEnds(.uikitTask, _, _): names.contains("upload")
            case .taskBegins(.bgTask, _, _), .taskEnds(.bgTask, _, _): names.contains("refresh")
            }
            #expect(shown, "\(kind) (\(kind.spec.perfetto)) does not show in \(names)")
        }
    }

    static func string(_ key: String, in event: SimEvent) -> String? {
        guard case .string(let value)? = event.fields.first(where: { $0.key == key })?.value else { return nil }
        return value
    }

    @Test("coverage counts one event of every kind under its name")
    func coverageCountsEveryKind() {
        let counter = CoverageCounter()
        var events = Self.kinds.map(\.spec.example)
        events += EnvironmentAction.allCases.map { .action($0) } + LifecycleEvent.allCases.map { .lifecycle($0) }
        let facts = RunFacts()
        for event in events { counter.observe(event, facts: facts) }
        let coverage = counter.coverage()
        #expect(coverage.entries("events").map(\.name) == SimEvent.allNames)
        for name in SimEvent.allNames {
            let expected = name == "env.launch" || name == "lifecycle.didFinishLaunching" ? 2 : 1
            #expect(coverage.count("events", name) == expected, "\(name)")
        }
        for action in EnvironmentAction.allCases {
            #expect(coverage.count("actions", action.rawValue) == (action == .launch ? 2 : 1), "\(action)")
        }
        #expect(coverage.count("states", "active") == 1)
        #expect(coverage.count("transitions", "notRunning->active") == 1)
    }

    @Test("every finite kind's events are tabulated, one content hash each")
    func finiteKindsAreTabulated() {
        let table = SimEvent.finiteHashes
        var expected = 0
        for kind in Self.kinds {
            let radices = SimEvent.Shape(of: kind.spec.example).finiteRadices
            #expect((table.bases[kind.rawValue] >= 0) == (radices != nil), "\(kind)")
            expected += radices?.reduce(1, *) ?? 0
        }
        #expect(table.hashes.count == expected)
        #expect(Set(table.hashes).count == table.hashes.count)
    }
}
