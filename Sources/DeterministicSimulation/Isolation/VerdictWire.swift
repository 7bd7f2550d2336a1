import SimulationFormats

/// The lines an isolated worker and its parent exchange: each one compact JSON object on one
/// line (written by ``JSONWriter``, read by ``JSONParser``), whose single member names the
/// message: `run` (a request), `verdict` (its answer), and beside them `ready` (the child's
/// first line: it serves), `watchdog` and the shrink messages of ``IsolatedShrinkWire``. The verdict the parent rebuilds equals, field for field,
/// the one the run gave in the child.
///
/// ```swift
/// VerdictWire.request(seed: Seed(7), record: false, budget: nil)
/// // {"run":{"seed":"0x0000000000000007","record":false}}
/// let line = encoder.line(verdict, recorded: nil)   // in the child
/// // {"verdict":{"digest":"…","eventCount":42,"simulatedMicroseconds":7000000,"stop":"quiescent",
/// //  "cost":99,"overBudget":false,"failures":[{"invariant":"no-double-end","message":"…",
/// //  "timeMicroseconds":2000000}],"layout":[{"category":"states","entries":["background"]}],
/// //  "counts":[[0,3]]}}
/// let (decoded, recorded) = try decoder.verdict(line.dropLast())   // in the parent
/// ```
///
/// Contract: a `run` names exactly one of `seed` (a random run), `choices` (a replay, as a
/// ``ChoiceSequence/token``) or `plan` with `fillSeed` (a coverage-guided mutant: the plan's fill
/// markers and its tail drawn from the seed); `record` asks for the drawn choices, actions, idle
/// steps and fallback count back (`recorded`); `budget` is absent when there is none. In a
/// verdict, `counts` holds each category's non-zero counts as flat `[index, count, …]` pairs,
/// and `layout` (the categories' names and entries) is sent only when it differs from the one
/// sent last on this connection (each side keeps it). Traces never cross: a parent that needs
/// one reruns the (deterministic, already survived) run in process.
enum VerdictWire {
    static func request(seed: Seed, record: Bool, budget: Int?) -> String {
        run([("seed", JSONValue(seed.description))], record: record, budget: budget)
    }

    static func request(choices: ChoiceSequence, record: Bool, budget: Int?) -> String {
        run([("choices", JSONValue(choices.token))], record: record, budget: budget)
    }

    static func request(plan: ChoiceSequence, filling seed: Seed, record: Bool, budget: Int?) -> String {
        run([("plan", JSONValue(plan.token)), ("fillSeed", JSONValue(seed.description))], record: record, budget: budget)
    }

    private static func run(_ what: [(String, JSONValue)], record: Bool, budget: Int?) -> String {
        var body = JSONObject(uniqueMembers: what)
        body.append("record", JSONValue(record))
        if let budget { body.append("budget", JSONValue(budget)) }
        return line("run", .object(body))
    }

    /// The child's first line, before any answer: it has begun serving.
    static let ready = #"{"ready":{}}"# + "\n"

    /// The line that starts the child's hang watchdog (the parent's first, when it has a run timeout).
    static func watchdog(milliseconds: Int) -> String {
        line("watchdog", ["milliseconds": JSONValue(milliseconds)])
    }

    /// One message as a line: `{"<kind>":<body>}` and a newline.
    static func line(_ kind: String, _ body: JSONValue) -> String {
        JSONWriter(style: .compact).string(for: [kind: body]) + "\n"
    }

    /// A line's message kind and body, or nil when the line is not one JSON object of one member.
    static func message(_ line: Substring) -> (kind: String, body: JSONValue)? {
        guard let value = try? JSONParser().parse(line.utf8), let members = value.objectValue?.members,
              members.count == 1 else { return nil }
        return (members[0].key, members[0].value)
    }

    /// A decoded request.
    struct Request {
        var seed: Seed?
        var choices: ChoiceSequence?
        var fillSeed: Seed?
        var record: Bool
        var budget: Int?
    }

    /// A message the child reads.
    enum Message {
        case run(Request)
        case watchdog(milliseconds: Int)
        case shrink(IsolatedShrinkWire.ShrinkRequest)
    }

    /// Reads a parent's line; nil when it is not a well-formed message.
    static func parseMessage(_ line: Substring) -> Message? {
        guard let message = message(line) else { return nil }
        let body = message.body
        switch message.kind {
        case "run":
            return parseRequest(body).map(Message.run)
        case "watchdog":
            guard let milliseconds = int(body["milliseconds"]), milliseconds > 0 else { return nil }
            return .watchdog(milliseconds: milliseconds)
        case "shrink":
            return IsolatedShrinkWire.parseRequest(body).map(Message.shrink)
        default:
            return nil
        }
    }

    static func parseRequest(_ body: JSONValue) -> Request? {
        guard let object = body.objectValue, let record = object["record"]?.boolValue else { return nil }
        var request = Request(record: record, budget: nil)
        if let budget = object["budget"] {
            guard let value = int(budget), value >= 0 else { return nil }
            request.budget = value
        }
        let seed = object["seed"]?.stringValue, choices = object["choices"]?.stringValue
        let plan = object["plan"]?.stringValue, fillSeed = object["fillSeed"]?.stringValue
        switch (seed, choices, plan, fillSeed) {
        case (let seed?, nil, nil, nil):
            guard let parsed = try? Seed(parsing: seed) else { return nil }
            request.seed = parsed
        case (nil, let choices?, nil, nil):
            guard let parsed = try? ChoiceSequence(token: choices) else { return nil }
            request.choices = parsed
        case (nil, nil, let plan?, let fillSeed?):
            guard let parsed = try? ChoiceSequence(token: plan), let seed = try? Seed(parsing: fillSeed) else { return nil }
            request.choices = parsed
            request.fillSeed = seed
        default:
            return nil
        }
        return request
    }

    /// What a run drew, sent back when asked (`record`).
    struct Recorded: Equatable {
        var outcomes: [UInt64]
        var actions: [ChoiceAction]
        var idleSteps: [Range<Int>]
        var fallbackCount: Int
    }

    /// The child's side: remembers the coverage layout it sent last.
    struct Encoder {
        private var lastLayout: [Coverage.Category] = []

        mutating func line(_ verdict: RunVerdict, recorded: Recorded?) -> String {
            var body = JSONObject(uniqueMembers: [
                ("digest", JSONValue(verdict.digest.description)), ("eventCount", JSONValue(verdict.eventCount)),
                ("simulatedMicroseconds", .int(verdict.simulatedTime.microseconds)),
                ("stop", JSONValue(verdict.stop.rawValue)), ("cost", JSONValue(verdict.cost)),
                ("overBudget", JSONValue(verdict.overBudget)),
                ("failures", .array(verdict.failures.map { failure -> JSONValue in
                    ["invariant": JSONValue(failure.invariant), "message": JSONValue(failure.message),
                     "timeMicroseconds": .int(failure.time.microseconds)]
                })),
            ])
            let categories = verdict.coverage.categories
            if categories.count != lastLayout.count
                || !zip(categories, lastLayout).allSatisfy({ $0.name == $1.name && $0.names == $1.names }) {
                body.append("layout", .array(categories.map { category -> JSONValue in
                    ["category": JSONValue(category.name), "entries": .array(category.names.map { JSONValue.string($0) })]
                }))
                lastLayout = categories
            }
            body.append("counts", .array(categories.map(VerdictWire.sparseCounts)))
            if let recorded {
                body.append("recorded", [
                    "choices": JSONValue(ChoiceSequence(recorded.outcomes).token),
                    "actions": .array(recorded.actions.map { action -> JSONValue in
                        var fields = [JSONValue(action.firstDraw), JSONValue(action.stopDraw), JSONValue(action.isSkippable)]
                        if let choice = action.choice {
                            fields += [JSONValue(choice.outcome), .array(choice.possible.map { JSONValue($0) })]
                        }
                        return .array(fields)
                    }),
                    "idleSteps": .array(recorded.idleSteps.map { [JSONValue($0.lowerBound), JSONValue($0.upperBound)] }),
                    "fallbackCount": JSONValue(recorded.fallbackCount),
                ])
            }
            return VerdictWire.line("verdict", .object(body))
        }
    }

    /// One category's non-zero counts as flat `[index, count, …]` pairs. Sparse because most
    /// entries of a run are 0 (a run reaches a few dozen of several hundred (state, event)
    /// pairs), and writing and parsing every count of every run made isolated campaigns half as
    /// slow again.
    private static func sparseCounts(_ category: Coverage.Category) -> JSONValue {
        var pairs: [JSONValue] = []
        for (index, count) in category.counts.enumerated() where count != 0 {
            pairs.append(JSONValue(index))
            pairs.append(JSONValue(count))
        }
        return .array(pairs)
    }

    /// A line the parent could not read: the child and parent disagree (a bug, or a child that
    /// printed to stdout).
    struct MalformedLine: Error, CustomStringConvertible {
        var line: String
        /// What did not read: `not a JSON object`, `counts[1]`, `recorded.choices`.
        var problem: String
        var description: String { "an isolated worker sent an unreadable line (\(problem)): \(line.prefix(200))" }
    }

    /// `value` as an `Int`, if it is a JSON integer that fits.
    static func int(_ value: JSONValue?) -> Int? { value?.intValue.flatMap { Int(exactly: $0) } }
}
