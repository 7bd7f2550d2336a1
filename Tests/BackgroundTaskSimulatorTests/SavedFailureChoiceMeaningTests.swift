import BackgroundTaskSimulator
import DeterministicSimulation
@testable import SimulationFormats
import Testing

/// A saved failure records what its choices mean (``ChoiceMeaning``). One saved by an older
/// version that no longer fails is kept, not dropped as fixed: its choices now mean another run
/// (probe 6: app lock points moved a saved failure's later draws, the campaign that maintained the
/// store deleted it, and a real, unfixed bug lost its pin). One saved by this version that no
/// longer fails is dropped as before.
@Suite struct SavedFailureChoiceMeaningTests {
    static func saved(_ scenario: Scenario, meaning: Int64) -> SavedFailure {
        var failure = SavedFailure(scenarioName: scenario.name, scenarioFile: scenario.file,
                                   invariant: "every-begin-ended", message: "task 3 never ended",
                                   choices: ChoiceSequence([0, 1, 2]), seed: Seed(7), campaignSeed: Seed(1),
                                   toolVersion: "test")
        failure.choiceMeaning = meaning
        return failure
    }

    @Test("an older version's saved failure that no longer fails is kept and named; this version's is dropped")
    func olderSavedFailureIsKept() throws {
        let scenario = try ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/token-correct-ios17.json")
        let older = InMemoryFailureStore()
        older.save(Self.saved(scenario, meaning: ChoiceMeaning.unrecorded))
        let kept = try older.replay(scenario, dropsFixed: true)
        #expect(kept.savedUnderOtherChoices.map(\.invariant) == ["every-begin-ended"] && kept.noLongerFailing.isEmpty)
        #expect(older.failures.count == 1, "kept in the store")
        #expect(kept.summary().contains("1 saved by an older version (every-begin-ended) no longer fails as replayed"),
                "\(kept.summary())")

        let current = InMemoryFailureStore()
        current.save(Self.saved(scenario, meaning: ChoiceMeaning.current))
        let dropped = try current.replay(scenario, dropsFixed: true)
        #expect(dropped.noLongerFailing.map(\.invariant) == ["every-begin-ended"] && dropped.savedUnderOtherChoices.isEmpty)
        #expect(current.failures.isEmpty, "this version's replay passing means fixed")
    }

    @Test("the file records choiceMeaning; a file without it is of the unrecorded version; a bad one is an error naming the field")
    func fileFormat() throws {
        let scenario = try ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/token-correct-ios17.json")
        let failure = Self.saved(scenario, meaning: ChoiceMeaning.current)
        let text = JSONWriter().string(for: failure.json)
        #expect(text.contains("\"choiceMeaning\""), "\(text)")
        #expect(try SavedFailure(json: JSONParser().parse(Array(text.utf8)), file: "f.json") == failure)
        let older = text.replacingOccurrences(of: ",\n  \"choiceMeaning\": \(ChoiceMeaning.current)", with: "")
            .replacingOccurrences(of: ", \"choiceMeaning\": \(ChoiceMeaning.current)", with: "")
        #expect(!older.contains("choiceMeaning"), "\(older)")
        #expect(try SavedFailure(json: JSONParser().parse(Array(older.utf8)), file: "f.json").choiceMeaning == ChoiceMeaning.unrecorded)
        let bad = text.replacingOccurrences(of: "\(ChoiceMeaning.current)\n", with: "\"two\"\n")
            .replacingOccurrences(of: "\"choiceMeaning\": \(ChoiceMeaning.current)", with: "\"choiceMeaning\": \"two\"")
        #expect(throws: FailureStoreError.self) { try SavedFailure(json: JSONParser().parse(Array(bad.utf8)), file: "f.json") }
        do {
            _ = try SavedFailure(json: JSONParser().parse(Array(bad.utf8)), file: "f.json")
        } catch {
            #expect("\(error)".contains("$.choiceMeaning"), "\(error)")
        }
    }
}
