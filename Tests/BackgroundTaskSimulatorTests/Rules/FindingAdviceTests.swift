@testable import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// `work-survives-termination` says how to fix what it found, and the fix depends on whether the
/// process was told it would end. A probe's notes app saved on background entry, was force-quit
/// from the app switcher while still active, got `willTerminate` (B3.3), did not save there, and
/// was told to "save on didEnterBackground, not only in willTerminate": the opposite of its fix.
@Suite struct WorkSurvivesTerminationAdviceTests {
    static func message(toldWillTerminate: Bool, reason: TerminationReason) -> String? {
        let checker = WorkSurvivesTermination()
        let facts = RunFacts()
        var events: [SimEvent] = [.processLaunched(process: 1, inBackground: false), .recordChanged(record: "note-draft", unsavedChanges: 1)]
        if toldWillTerminate { events.append(.lifecycle(.willTerminate)) }
        events.append(.terminated(reason, openTasks: []))
        return events.enumerated().compactMap { index, event in
            WorkSurvivesTermination.observes(event) ? checker.observe(event, at: .seconds(Int64(index)), facts: facts) : nil
        }.first
    }

    @Test("told willTerminate first: save there")
    func toldToTerminate() throws {
        let message = try #require(Self.message(toldWillTerminate: true, reason: .forceQuit))
        #expect(message.hasSuffix("with 1 unsaved change to 'note-draft': the data is lost. The app was told "
                                  + "willTerminate first (B3.3) and did not save there; save in applicationWillTerminate "
                                  + "too (or when the data changes)"), "\(message)")
    }

    @Test("no callback (jetsam, a suspended app's force-quit): save on background entry")
    func noCallback() throws {
        let message = try #require(Self.message(toldWillTerminate: false, reason: .memoryPressure))
        #expect(message.hasSuffix("the data is lost. A suspended or jettisoned app gets no callback (B3.1, B3.4); save "
                                  + "on didEnterBackground, not only in willTerminate"), "\(message)")
    }
}

/// `background-work-held` found at a background entry names the task that was ended under the
/// work (probe 6: the message named only "when didEnterBackground returned", long after the task
/// covering the upload had been ended in the foreground by the app's own completion path).
@Suite struct BackgroundWorkHeldCauseTests {
    static func message(_ events: [(Int64, SimEvent)]) -> String? {
        let checker = BackgroundWorkHeld()
        let facts = RunFacts()
        return events.compactMap { second, event in
            BackgroundWorkHeld.observes(event) ? checker.observe(event, at: .seconds(second), facts: facts) : nil
        }.first
    }

    @Test("a task ended in the foreground while the work ran is named at the later finding")
    func namesTheEarlierEnd() throws {
        let message = try #require(Self.message([
            (0, .processLaunched(process: 1, inBackground: false)), (1, .workStarted(id: 7, name: "PUT avatar")),
            (2, .taskEnded(id: 2, name: "profile-sync")), (5, .nothingHeld(reason: "didEnterBackground returned")),
        ]))
        #expect(message.contains("when didEnterBackground returned (background task 2 was ended at "), "\(message)")
    }

    @Test("an end before the work began, or at the finding itself, is not named")
    func otherEndsAreNotNamed() throws {
        let before = try #require(Self.message([
            (0, .processLaunched(process: 1, inBackground: false)), (1, .taskEnded(id: 2, name: "profile-sync")),
            (2, .workStarted(id: 7, name: "PUT avatar")), (5, .nothingHeld(reason: "didEnterBackground returned")),
        ]))
        #expect(!before.contains("was ended at"), "\(before)")
        let atOnce = try #require(Self.message([
            (0, .processLaunched(process: 1, inBackground: true)), (1, .workStarted(id: 7, name: "PUT avatar")),
            (2, .taskEnded(id: 2, name: "profile-sync")), (2, .nothingHeld(reason: "task 2 ended")),
        ]))
        #expect(!atOnce.contains("was ended at"), "\(atOnce)")
    }
}
