import BackgroundTaskKit
@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// The hot path indexes per-case tables with switches instead of searching `allCases`; these pin
/// each switch to declaration order, so a new or reordered case cannot go unnoticed.
@Suite struct HotPathIndexTests {
    @Test("each environment action's index is its position in allCases")
    func actionIndexIsDeclarationOrder() {
        #expect(EnvironmentAction.allCases.map(\.ordinal) == Array(EnvironmentAction.allCases.indices))
    }

    @Test("each app state's ordinal is its position in allCases")
    func stateOrdinalIsDeclarationOrder() {
        #expect(AppProcessState.allCases.map(\.ordinal) == Array(AppProcessState.allCases.indices))
    }

    @Test("each lifecycle event's ordinal is its position in allCases")
    func lifecycleOrdinalIsDeclarationOrder() {
        #expect(LifecycleEvent.allCases.map(\.ordinal) == Array(LifecycleEvent.allCases.indices))
    }

    @Test("each named enum's case count and names follow allCases")
    func namedEnumsFollowAllCases() {
        func check<Case: EventNamedEnum & CaseIterable & RawRepresentable>(_: Case.Type) where Case.RawValue == String {
            #expect(Case.caseCount == Case.allCases.count, "\(Case.self)")
            #expect(Case.caseNames.names == Case.allCases.map(\.rawValue), "\(Case.self)")
            #expect(Case.allCases.map(\.ordinal) == Array(0..<Case.caseCount), "\(Case.self)")
        }
        check(EnvironmentAction.self)
        check(AppProcessState.self)
        check(LifecycleEvent.self)
    }
}
