import SimulationFormats

/// "Did you mean …?" for command and option names, by edit distance (``NearestName``).
///
/// ```swift
/// NameSuggestion.option(for: "--rnus", among: ["--runs", "--seed"])   // "--runs"
/// NameSuggestion.option(for: "-runs", among: ["--runs", "--seed"])    // "--runs"
/// NameSuggestion.command(for: "fuz", among: ["fuzz", "replay"])       // "fuzz"
/// ```
///
/// Contract: options are compared without their leading dashes, so the threshold of
/// ``NearestName`` applies to the word itself and a single-dash `-runs` finds `--runs`; `nil`
/// when nothing is close. Deterministic: ties go to the earlier candidate.
enum NameSuggestion {
    static func option(for name: String, among candidates: [String]) -> String? {
        let bare = words(name)
        let bareCandidates = candidates.map(words)
        if let exact = bareCandidates.firstIndex(of: bare) { return candidates[exact] }
        guard let near = NearestName.suggestion(for: bare, among: bareCandidates),
              let index = bareCandidates.firstIndex(of: near) else { return nil }
        return candidates[index]
    }

    static func command(for name: String, among candidates: [String]) -> String? {
        NearestName.suggestion(for: name, among: candidates)
    }

    private static func words(_ name: String) -> String {
        String(name.drop { $0 == "-" })
    }
}
