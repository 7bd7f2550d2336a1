/// Where two runs that should be the same part: the first event that differs between their
/// traces, so a nondeterminism report points at the line to look at, not only at two digests.
///
/// ```swift
/// TraceDivergence.first(first.trace, second.trace)
/// // "event 37: 12.500000s task.end id=1 (thread p1.main) in one run, 12.500000s
/// //  task.expirationHandler id=1 (thread p1.main) in the other"
/// ```
///
/// Contract: compares kept trace lines in order (time, name, fields, thread); nil when the traces
/// are equal.
enum TraceDivergence {
    static func first(_ one: [TraceLine], _ other: [TraceLine]) -> String? {
        let count = max(one.count, other.count)
        for index in 0..<count {
            let left = index < one.count ? one[index] : nil
            let right = index < other.count ? other[index] : nil
            guard left != right else { continue }
            return "event \(index + 1): \(text(left)) in one run, \(text(right)) in the other"
        }
        return nil
    }

    /// Runs the run `source` makes twice more with traces and names where they part; when they do
    /// not, says what that means for the run `expected` was seen for.
    ///
    /// - Parameters:
    ///   - source: a fresh source for each rerun (the same seed or choices every time).
    ///   - known: a traced rerun made already, if any (it stands for the first of the two).
    static func explain(target: any CampaignTarget, source: () -> ChoiceSource, known: RunVerdict? = nil) -> String {
        let first = known ?? target.run(choices: source(), keepTrace: true)
        let second = target.run(choices: source(), keepTrace: true)
        if let text = Self.first(first.trace, second.trace) { return "two traced reruns part at " + text }
        if first.digest != second.digest {
            return "two traced reruns differ (digests \(first.digest) and \(second.digest)) in an event their traces do not keep"
        }
        return "two more reruns agreed with each other (digest \(first.digest)) but not with the run the campaign "
            + "saw: state left over from earlier runs in the process (a global, a singleton, a cache) is the usual cause"
    }

    private static func text(_ line: TraceLine?) -> String {
        guard let line else { return "the end of the run" }
        let seconds = line.time.microseconds / 1_000_000
        let micros = line.time.microseconds % 1_000_000
        var fraction = String(micros)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        let fields = line.fields.map { " \($0.key)=\($0.value)" }.joined()
        return "\(seconds).\(fraction)s \(line.name)\(fields)" + (line.thread.map { " (thread \($0))" } ?? "")
    }
}
