import Foundation

/// The "tidy" check: simulation code must not reach for nondeterministic APIs. Each rule names
/// the banned API and the deterministic replacement; a violation prints `file:line` and both.
///
/// A line may opt out with a trailing `// tidy: allow <reason>` (the reason is required), for
/// justified exceptions such as the campaign runner's worker threads.
enum TidyChecker {
    /// One banned API: a regular expression over a comment-free line, and what to use instead.
    struct Rule: Sendable {
        let banned: String
        let pattern: String
        let replacement: String
    }

    /// One use of a banned API.
    struct Violation: CustomStringConvertible, Equatable {
        let file: String
        let line: Int
        let banned: String
        let replacement: String
        let text: String

        var description: String {
            "\(file):\(line): \(banned) is banned in simulation code (not deterministic); "
                + "use \(replacement) instead, or end the line with `// tidy: allow <reason>`\n"
                + "    \(text.trimmingCharacters(in: .whitespaces))"
        }
    }

    static let rules: [Rule] = [
        Rule(banned: "`Int.random`/`.random(in:)`",
             pattern: #"\b(U?Int(8|16|32|64)?|Double|Float|CGFloat|Bool)\.random\b|\.random\(in:"#,
             replacement: "ChoiceSource.int(in:) or ChoiceSource.bool(probability:)"),
        Rule(banned: "`shuffled()`/`shuffle()`", pattern: #"\bshuffled?\("#,
             replacement: "picks via ChoiceSource.pick(from:) or draw(below:)"),
        Rule(banned: "`randomElement()`", pattern: #"\brandomElement\("#,
             replacement: "ChoiceSource.pick(from:)"),
        Rule(banned: "`SystemRandomNumberGenerator`", pattern: #"\bSystemRandomNumberGenerator\b"#,
             replacement: "Xoshiro256StarStar seeded from a Seed"),
        Rule(banned: "`Date()`", pattern: #"\bDate\(\)|\bDate\.now\b"#,
             replacement: "VirtualClock.now"),
        Rule(banned: "`ContinuousClock`/`SuspendingClock`", pattern: #"\b(ContinuousClock|SuspendingClock)\b"#,
             replacement: "VirtualClock"),
        Rule(banned: "`Task.sleep`", pattern: #"\bTask\.sleep\b"#,
             replacement: "Scheduler.asyncAfter"),
        Rule(banned: "`DispatchQueue`/`DispatchGroup`/`DispatchSemaphore`/`Thread.sleep`",
             pattern: #"\b(DispatchQueue|DispatchGroup|DispatchSemaphore)\b|\bThread\.sleep\b"#,
             replacement: "Scheduler queues (makeQueue, async, asyncAfter)"),
        Rule(banned: "`.hashValue`", pattern: #"\.hashValue\b"#,
             replacement: "StableHasher"),
        Rule(banned: "`Set` (iteration order differs per process)", pattern: #"\bSet\s*[<(]"#,
             replacement: "a sorted array, or an ordered array plus a membership check"),
        Rule(banned: "iterating a dictionary's `.keys`/`.values`",
             pattern: #"\bfor\b.*\bin\b.*\.(keys|values)\s*(\{|\bwhere\b|$)"#,
             replacement: "iterate `.keys.sorted()` or keep an ordered array"),
    ]

    /// Checks one file's text; `file` is only used in messages.
    static func check(source: String, file: String) throws -> [Violation] {
        // Simple word boundaries: the default (Unicode) ones treat `items.shuffled` as one word.
        let compiled = try rules.map {
            (rule: $0, regex: try Regex($0.pattern).wordBoundaryKind(.simple))
        }
        let escape = try Regex(#"//\s*tidy:\s*allow\b\s*(\S.*)?$"#)
        var violations: [Violation] = []
        var inBlockComment = false
        for (offset, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = stripComments(String(line), inBlockComment: &inBlockComment)
            if let match = line.firstMatch(of: escape) {
                if match.output[1].substring == nil {
                    violations.append(Violation(
                        file: file, line: offset + 1, banned: "`// tidy: allow` without a reason",
                        replacement: "`// tidy: allow <why this is deterministic>`", text: String(line)))
                }
                continue
            }
            for (rule, regex) in compiled where code.contains(regex) {
                violations.append(Violation(
                    file: file, line: offset + 1, banned: rule.banned,
                    replacement: rule.replacement, text: String(line)))
            }
        }
        return violations
    }

    /// The line without `//` and `/* */` comments; string literals are kept (a `//` inside one
    /// is not a comment). Block comments may span lines, tracked by `inBlockComment`.
    static func stripComments(_ line: String, inBlockComment: inout Bool) -> String {
        var result = ""
        var inString = false
        var characters = line[...]
        while let character = characters.first {
            if inBlockComment {
                if characters.hasPrefix("*/") {
                    inBlockComment = false
                    characters = characters.dropFirst(2)
                } else {
                    characters = characters.dropFirst()
                }
                continue
            }
            if inString {
                result.append(character)
                characters = characters.dropFirst()
                if character == "\\", let escaped = characters.first {
                    result.append(escaped)
                    characters = characters.dropFirst()
                } else if character == "\"" {
                    inString = false
                }
                continue
            }
            if characters.hasPrefix("//") { break }
            if characters.hasPrefix("/*") {
                inBlockComment = true
                characters = characters.dropFirst(2)
                continue
            }
            if character == "\"" { inString = true }
            result.append(character)
            characters = characters.dropFirst()
        }
        return result
    }
}
