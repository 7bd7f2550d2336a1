import BackgroundTaskKit

/// An enum an event carries and shows by its case's name: an environment action, an app state,
/// a lifecycle callback. ``SimEvent/describe(to:)`` passes the value itself; each visitor takes
/// what it needs: the ordinal (coverage, the content-hash index), the case count (a constant),
/// or the names with their hash words (``caseNames``, a table built once).
///
/// ```swift
/// visitor.enumName("state", AppProcessState.background)
/// AppProcessState.caseNames[AppProcessState.background.ordinal]   // "background"
/// ```
///
/// Contract: ``ordinal`` numbers the cases `0..<caseCount` in declaration order and
/// ``caseNames`` holds their raw values in that order (`HotPathIndexTests` pins all three to
/// `allCases`). Passing the value, not its table, keeps the table's lazy initialization check off
/// the paths that never read it.
protocol EventNamedEnum {
    /// The case's position in declaration order.
    var ordinal: Int { get }
    /// How many cases there are: a constant, not `allCases.count` (which builds an array).
    static var caseCount: Int { get }
    /// The cases' names by ordinal, with their hash words.
    static var caseNames: CaseNames { get }
}

extension EnvironmentAction: EventNamedEnum {
    static var caseCount: Int { 29 }
    static let caseNames = CaseNames(ordered.map(\.rawValue))
}

extension AppProcessState: EventNamedEnum {
    static var caseCount: Int { 5 }
    static let caseNames = CaseNames(allCases.map(\.rawValue))
}

extension LifecycleEvent: EventNamedEnum {
    static var caseCount: Int { 7 }
    static let caseNames = CaseNames(allCases.map(\.rawValue))
}
