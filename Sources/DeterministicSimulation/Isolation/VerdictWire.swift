/// The text lines an isolated worker and its parent exchange: one request per run, one verdict
/// per run, each a line of tab-separated fields (strings percent-escaped), so the verdict the
/// parent rebuilds equals, field for field, the one the run gave in the child.
///
/// ```swift
/// VerdictWire.request(seed: Seed(7), record: false, budget: nil)   // "S\t7\t0\t-1\n"
/// let line = VerdictWire.Encoder().line(verdict, recorded: nil)      // in the child
/// let verdict = try decoder.verdict(line)                            // in the parent
/// ```
///
/// Contract: requests are `S\t<seed>\t<record>\t<budget>` (a random run from a seed, in decimal)
/// or `C\t<choices token>\t<record>\t<budget>` (a replay) or
/// `F\t<plan token>\t<record>\t<budget>\t<seed>` (a coverage-guided mutant: the plan's fill
/// markers and its tail drawn from the seed); `record` 1 asks for the drawn choices,
/// actions, idle steps and fallback count back; budget -1 means none. Verdicts are
/// `R\t<digest>\t<events>\t<µs>\t<stop>\t<cost>\t<overBudget>\t<failures…>\t<layout>\t<counts>\t<record>`
/// where failures are a count then (invariant, message, µs) triples, `counts` gives each
/// category's non-zero counts as `index=count` (categories `;`-separated), `layout` is `-` when the
/// coverage has the layout sent last on this connection (each side keeps it), and `record` is
/// `-` or `<token>/<first.stop.skippable,…>/<fallbacks>/<start.end,…>` (the last part: idle steps). Traces never cross: a parent that
/// needs one reruns the (deterministic, already survived) run in process.
enum VerdictWire {
    static func request(seed: Seed, record: Bool, budget: Int?) -> String {
        "S\t\(seed.rawValue)\t\(record ? 1 : 0)\t\(budget ?? -1)\n"
    }

    static func request(choices: ChoiceSequence, record: Bool, budget: Int?) -> String {
        "C\t\(choices.token)\t\(record ? 1 : 0)\t\(budget ?? -1)\n"
    }

    static func request(plan: ChoiceSequence, filling seed: Seed, record: Bool, budget: Int?) -> String {
        "F\t\(plan.token)\t\(record ? 1 : 0)\t\(budget ?? -1)\t\(seed.rawValue)\n"
    }

    /// A decoded request.
    struct Request {
        var seed: Seed?
        var choices: ChoiceSequence?
        var fillSeed: Seed?
        var record: Bool
        var budget: Int?
    }

    static func parseRequest(_ line: Substring) -> Request? {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 4 || (fields.count == 5 && fields[0] == "F"), let budget = Int(fields[3]) else { return nil }
        var request = Request(record: fields[2] == "1", budget: budget < 0 ? nil : budget)
        switch fields[0] {
        case "S":
            guard let raw = UInt64(fields[1]) else { return nil }
            request.seed = Seed(raw)
        case "C":
            guard let choices = try? ChoiceSequence(token: String(fields[1])) else { return nil }
            request.choices = choices
        case "F":
            guard fields.count == 5, let choices = try? ChoiceSequence(token: String(fields[1])),
                  let raw = UInt64(fields[4]) else { return nil }
            request.choices = choices
            request.fillSeed = Seed(raw)
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
            var fields = ["R", verdict.digest.description, String(verdict.eventCount),
                          String(verdict.simulatedTime.microseconds), verdict.stop.rawValue, String(verdict.cost),
                          verdict.overBudget ? "1" : "0", String(verdict.failures.count)]
            for failure in verdict.failures {
                fields += [escape(failure.invariant), escape(failure.message), String(failure.time.microseconds)]
            }
            let categories = verdict.coverage.categories
            if categories.count == lastLayout.count
                && zip(categories, lastLayout).allSatisfy({ $0.name == $1.name && $0.names == $1.names }) {
                fields.append("-")
            } else {
                fields.append(categories.map { category in
                    escape(category.name) + ":" + category.names.map(escape).joined(separator: ",")
                }.joined(separator: ";"))
                lastLayout = categories
            }
            fields.append(VerdictWire.sparseCounts(categories))
            if let recorded {
                let actions = recorded.actions.map { "\($0.firstDraw).\($0.stopDraw).\($0.isSkippable ? 1 : 0)" }
                let idle = recorded.idleSteps.map { "\($0.lowerBound).\($0.upperBound)" }
                fields.append(ChoiceSequence(recorded.outcomes).token + "/" + actions.joined(separator: ",")
                    + "/\(recorded.fallbackCount)/" + idle.joined(separator: ","))
            } else {
                fields.append("-")
            }
            return fields.joined(separator: "\t") + "\n"
        }
    }

    /// The counts of every category, `;` between categories, each category's non-zero counts as
    /// `index=count` joined by `,`. Sparse because most entries of a run are 0 (a run reaches a
    /// few dozen of several hundred (state, event) pairs), and writing and parsing every count
    /// of every run made isolated campaigns half as slow again.
    private static func sparseCounts(_ categories: [Coverage.Category]) -> String {
        var text = ""
        for (position, category) in categories.enumerated() {
            if position > 0 { text.append(";") }
            var first = true
            for (index, count) in category.counts.enumerated() where count != 0 {
                if !first { text.append(",") }
                first = false
                text.append(String(index))
                text.append("=")
                text.append(String(count))
            }
        }
        return text
    }

    /// A line the parent could not read: the child and parent disagree (a bug, or a child that
    /// printed to stdout).
    struct MalformedLine: Error, CustomStringConvertible {
        var line: String
        var description: String { "an isolated worker sent an unreadable line: \(line.prefix(200))" }
    }

    /// The parent's side: remembers the coverage layout of its child connection, as a template
    /// with every count 0 (copies of it share their name arrays, which keeps the campaign's
    /// coverage tally on its fast path).
    struct Decoder {
        private var template = Coverage()
        private var positions: [[(category: Int, entry: Int)]] = []

        mutating func verdict(_ line: Substring) throws(MalformedLine) -> (RunVerdict, Recorded?) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            let bad = MalformedLine(line: String(line))
            guard fields.count >= 11, fields[0] == "R", let digest = TraceDigest(parsing: String(fields[1])),
                  let events = Int(fields[2]), let micros = Int64(fields[3]),
                  let stop = RunStop(rawValue: String(fields[4])), let cost = Int(fields[5]),
                  let failureCount = Int(fields[7]), fields.count == 11 + 3 * failureCount else { throw bad }
            var failures: [Violation] = []
            for index in 0..<failureCount {
                let at = 8 + 3 * index
                guard let time = Int64(fields[at + 2]) else { throw bad }
                failures.append(Violation(invariant: unescape(fields[at]), message: unescape(fields[at + 1]),
                                           time: VirtualTime(microseconds: time)))
            }
            let tail = 8 + 3 * failureCount
            if fields[tail] != "-" { learnLayout(fields[tail]) }
            var coverage = template
            guard addCounts(fields[tail + 1], to: &coverage) else { throw bad }
            let verdict = RunVerdict(digest: digest, eventCount: events, simulatedTime: VirtualTime(microseconds: micros),
                                     failures: failures, coverage: coverage, stop: stop, cost: cost,
                                     overBudget: fields[6] == "1")
            return (verdict, try recorded(fields[tail + 2], bad: bad))
        }

        /// Adds the sparse counts of a verdict line (``VerdictWire/sparseCounts(_:)``) to `coverage`,
        /// reading the field's bytes in one pass (splitting `Substring`s by `Character`, and parsing
        /// each number from a `Substring`, was most of an isolated parent's time); `false` when
        /// the field is malformed or names an entry outside the layout.
        private func addCounts(_ field: Substring, to coverage: inout Coverage) -> Bool {
            if field.isEmpty { return positions.isEmpty || positions.count == 1 }
            var category = 0
            var index = 0
            var value = 0
            var digits = 0
            var readingValue = false
            func finishEntry() -> Bool {
                guard readingValue, digits > 0, category < positions.count, index < positions[category].count
                else { return false }
                coverage.add(count: value, at: positions[category][index])
                index = 0
                value = 0
                digits = 0
                readingValue = false
                return true
            }
            var entryOpen = false
            for byte in field.utf8 {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    let digit = Int(byte &- UInt8(ascii: "0"))
                    let (times, overflowTimes) = (readingValue ? value : index).multipliedReportingOverflow(by: 10)
                    let (next, overflowPlus) = times.addingReportingOverflow(digit)
                    guard !overflowTimes, !overflowPlus else { return false }
                    if readingValue { value = next } else { index = next }
                    digits += 1
                    entryOpen = true
                case UInt8(ascii: "="):
                    guard !readingValue, digits > 0 else { return false }
                    readingValue = true
                    digits = 0
                case UInt8(ascii: ","):
                    guard finishEntry() else { return false }
                    entryOpen = false
                case UInt8(ascii: ";"):
                    if entryOpen { guard finishEntry() else { return false } }
                    entryOpen = false
                    category += 1
                default:
                    return false
                }
            }
            if entryOpen { guard finishEntry() else { return false } }
            return category == positions.count - 1
        }

        private mutating func learnLayout(_ text: Substring) {
            var layout = Coverage()
            positions = []
            for category in text.split(separator: ";", omittingEmptySubsequences: false) where !category.isEmpty {
                let parts = category.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                let name = unescape(parts[0])
                var slots: [(category: Int, entry: Int)] = []
                let entries = parts.count > 1 ? parts[1].split(separator: ",") : []
                for entry in entries {
                    let entryName = unescape(entry)
                    layout.add(name, entryName, count: 0)
                    slots.append(layout.position(name, entryName)!)
                }
                positions.append(slots)
            }
            template = layout
        }

        private func recorded(_ field: Substring, bad: MalformedLine) throws(MalformedLine) -> Recorded? {
            guard field != "-" else { return nil }
            let parts = field.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 4, let sequence = try? ChoiceSequence(token: String(parts[0])),
                  let fallbacks = Int(parts[2]) else { throw bad }
            var actions: [ChoiceAction] = []
            for text in parts[1].split(separator: ",") {
                let numbers = text.split(separator: ".").compactMap { Int($0) }
                guard numbers.count == 3 else { throw bad }
                actions.append(ChoiceAction(firstDraw: numbers[0], stopDraw: numbers[1], isSkippable: numbers[2] == 1))
            }
            var idleSteps: [Range<Int>] = []
            for text in parts[3].split(separator: ",") {
                let numbers = text.split(separator: ".").compactMap { Int($0) }
                guard numbers.count == 2, numbers[0] <= numbers[1] else { throw bad }
                idleSteps.append(numbers[0]..<numbers[1])
            }
            return Recorded(outcomes: sequence.values, actions: actions, idleSteps: idleSteps, fallbackCount: fallbacks)
        }
    }

    /// Percent-escapes what would break a field: `%`, tab, newline, return and the coverage
    /// separators.
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { Self.escaped.contains($0) }) else { return text }
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if Self.escaped.contains(byte) {
                bytes += Array("%".utf8) + Array((byte < 16 ? "0" : "").utf8) + Array(String(byte, radix: 16).utf8)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func unescape(_ text: Substring) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
               let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let escaped: [UInt8] = Array("%\t\n\r;:,/".utf8)
}
