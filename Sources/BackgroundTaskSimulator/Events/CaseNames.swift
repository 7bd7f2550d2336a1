import DeterministicSimulation

/// The names of an enum's cases in declaration order, with the words ``StableHasher`` feeds for
/// each computed once: events that carry an enum case (an action, an app state) hash its name
/// from here, without walking its UTF-8, and print it from here.
///
/// ```swift
/// let states = AppProcessState.caseNames            // CaseNames(allCases.map(\.rawValue))
/// states[AppProcessState.background.ordinal]          // "background"
/// states.hashWords.combine(3, into: &hasher)          // as hasher.combine("background")
/// ```
///
/// Contract: index `i` is the case whose `ordinal` is `i`; ``hashWords`` feeds exactly what
/// `hasher.combine(names[i])` feeds (``StableHashStringTable``), so digests are those of the
/// names themselves.
struct CaseNames: Sendable {
    /// The names, by ordinal.
    let names: [String]
    /// The hash words of each name, by ordinal.
    let hashWords: StableHashStringTable

    init(_ names: [String]) {
        self.names = names
        hashWords = StableHashStringTable(names)
    }

    /// The number of cases.
    var count: Int { names.count }

    /// The name of the case with `ordinal`.
    subscript(ordinal: Int) -> String { names[ordinal] }
}
