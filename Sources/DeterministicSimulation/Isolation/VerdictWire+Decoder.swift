import SimulationFormats

extension VerdictWire {
    /// The parent's side: reads `verdict` lines and remembers the coverage layout of its child
    /// connection, as a template with every count 0 (copies of it share their name arrays, which
    /// keeps the campaign's coverage tally on its fast path).
    ///
    /// ```swift
    /// var decoder = VerdictWire.Decoder()
    /// let (verdict, recorded) = try decoder.verdict(line)   // line without its newline
    /// ```
    ///
    /// Contract: a line that is not a `verdict` message with every field of the right type, or
    /// whose counts name an entry outside the layout, throws ``MalformedLine`` naming the field;
    /// the layout is kept only from a line that reads whole.
    struct Decoder {
        private var template = Coverage()
        private var positions: [[(category: Int, entry: Int)]] = []

        mutating func verdict(_ line: Substring) throws(MalformedLine) -> (RunVerdict, Recorded?) {
            let bad = { (problem: String) in MalformedLine(line: String(line), problem: problem) }
            guard let message = VerdictWire.message(line), message.kind == "verdict",
                  let body = message.body.objectValue else { throw bad("not a verdict message") }
            let fields = Fields(object: body, line: line)
            guard let digest = TraceDigest(parsing: try fields.string("digest")) else { throw bad("digest") }
            guard let stop = RunStop(rawValue: try fields.string("stop")) else { throw bad("stop") }
            var failures: [Violation] = []
            for (index, failure) in try fields.array("failures").enumerated() {
                guard let invariant = failure["invariant"]?.stringValue, let text = failure["message"]?.stringValue,
                      let time = failure["timeMicroseconds"]?.intValue else { throw bad("failures[\(index)]") }
                failures.append(Violation(invariant: invariant, message: text, time: VirtualTime(microseconds: time)))
            }
            var layout = (template, positions)
            if let sent = body["layout"] {
                guard let learned = Self.layout(sent) else { throw bad("layout") }
                layout = learned
            }
            var coverage = layout.0
            if let problem = Self.addCounts(try fields.array("counts"), positions: layout.1, to: &coverage) {
                throw bad(problem)
            }
            let verdict = RunVerdict(
                digest: digest, eventCount: try fields.int("eventCount"),
                simulatedTime: VirtualTime(microseconds: try fields.int64("simulatedMicroseconds")),
                failures: failures, coverage: coverage, stop: stop, cost: try fields.int("cost"),
                overBudget: try fields.bool("overBudget"))
            var recorded: Recorded?
            if let value = body["recorded"] {
                guard let read = Self.recorded(value) else { throw bad("recorded") }
                recorded = read
            }
            (template, positions) = layout
            return (verdict, recorded)
        }

        /// Adds the sparse counts (``VerdictWire/sparseCounts(_:)``) to `coverage`; the field
        /// that does not read, or nil.
        private static func addCounts(_ counts: [JSONValue], positions: [[(category: Int, entry: Int)]],
                                      to coverage: inout Coverage) -> String? {
            guard counts.count == positions.count else { return "counts: \(counts.count) categories, not \(positions.count)" }
            for (category, value) in counts.enumerated() {
                guard let pairs = value.arrayValue, pairs.count % 2 == 0 else { return "counts[\(category)]" }
                let slots = positions[category]
                for pair in stride(from: 0, to: pairs.count, by: 2) {
                    guard let index = VerdictWire.int(pairs[pair]), slots.indices.contains(index),
                          let count = VerdictWire.int(pairs[pair + 1]) else { return "counts[\(category)][\(pair)]" }
                    coverage.add(count: count, at: slots[index])
                }
            }
            return nil
        }

        /// The template and entry positions of a `layout` field; nil when it does not read.
        private static func layout(_ value: JSONValue) -> (Coverage, [[(category: Int, entry: Int)]])? {
            guard let categories = value.arrayValue else { return nil }
            var layout = Coverage()
            var positions: [[(category: Int, entry: Int)]] = []
            for category in categories {
                guard let name = category["category"]?.stringValue, let entries = category["entries"]?.arrayValue
                else { return nil }
                var slots: [(category: Int, entry: Int)] = []
                for entry in entries {
                    guard let entryName = entry.stringValue else { return nil }
                    layout.add(name, entryName, count: 0)
                    guard let slot = layout.position(name, entryName) else { return nil }
                    slots.append(slot)
                }
                positions.append(slots)
            }
            return (layout, positions)
        }

        private static func recorded(_ value: JSONValue) -> Recorded? {
            guard let token = value["choices"]?.stringValue, let sequence = try? ChoiceSequence(token: token),
                  let actionValues = value["actions"]?.arrayValue, let idleValues = value["idleSteps"]?.arrayValue,
                  let fallbacks = VerdictWire.int(value["fallbackCount"]) else { return nil }
            var actions: [ChoiceAction] = []
            for action in actionValues {
                // [first, stop, skippable], then for a drawn action [outcome, [possible…]].
                guard let first = VerdictWire.int(action[0]), let stop = VerdictWire.int(action[1]),
                      let skippable = action[2]?.boolValue, let count = action.arrayValue?.count,
                      count == 3 || count == 5 else { return nil }
                var choice: ActionChoice?
                if count == 5 {
                    guard let outcome = VerdictWire.int(action[3]), let possibleValues = action[4]?.arrayValue
                    else { return nil }
                    let possible = possibleValues.compactMap { VerdictWire.int($0) }
                    guard possible.count == possibleValues.count else { return nil }
                    choice = ActionChoice(outcome: outcome, possible: possible)
                }
                actions.append(ChoiceAction(firstDraw: first, stopDraw: stop, isSkippable: skippable, choice: choice))
            }
            var idleSteps: [Range<Int>] = []
            for step in idleValues {
                guard let start = VerdictWire.int(step[0]), let end = VerdictWire.int(step[1]), start <= end,
                      step.arrayValue?.count == 2 else { return nil }
                idleSteps.append(start..<end)
            }
            return Recorded(outcomes: sequence.values, actions: actions, idleSteps: idleSteps, fallbackCount: fallbacks)
        }
    }

    /// Typed reads of a verdict's members, each throwing ``MalformedLine`` that names the member.
    private struct Fields {
        let object: JSONObject
        let line: Substring

        private func bad(_ key: String) -> MalformedLine { MalformedLine(line: String(line), problem: key) }

        func string(_ key: String) throws(MalformedLine) -> String {
            guard let value = object[key]?.stringValue else { throw bad(key) }
            return value
        }

        func int(_ key: String) throws(MalformedLine) -> Int {
            guard let value = VerdictWire.int(object[key]) else { throw bad(key) }
            return value
        }

        func int64(_ key: String) throws(MalformedLine) -> Int64 {
            guard let value = object[key]?.intValue else { throw bad(key) }
            return value
        }

        func bool(_ key: String) throws(MalformedLine) -> Bool {
            guard let value = object[key]?.boolValue else { throw bad(key) }
            return value
        }

        func array(_ key: String) throws(MalformedLine) -> [JSONValue] {
            guard let value = object[key]?.arrayValue else { throw bad(key) }
            return value
        }
    }
}
