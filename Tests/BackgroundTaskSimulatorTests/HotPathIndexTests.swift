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
}
