import BackgroundTaskSimulator
import Foundation
import Testing

/// Keeps the rule catalogue honest: every rule the simulator claims to model (as stated or as a
/// parameter) has at least one test whose name starts with the rule id, e.g.
/// `@Test("A3.8: a handler that does not end its task is not called again …")`. A rule that
/// cannot be tested must be marked `notModelled` in the catalogue, with the reason.
@Suite struct RuleCoverageTests {
    /// This test target's folder: this file is `<root>/Tests/BackgroundTaskSimulatorTests/…`.
    static var testsFolder: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent() }

    /// The rule ids that start a `@Test("<id>: …")` name anywhere in this target, sorted.
    static func testedRuleIDs() throws -> [String] {
        let pattern = try Regex(#"@Test\(\s*"([A-D][0-9]+(?:\.[0-9]+)?): "#)
        var ids: [String] = []
        let files = FileManager.default.enumerator(at: testsFolder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            .sorted { $0.path < $1.path } ?? []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: pattern) {
                if let id = match.output[1].substring { ids.append(String(id)) }
            }
        }
        return Array(Set(ids)).sorted()
    }

    @Test("every modelled or parameter rule in the catalogue has a test named with its id")
    func everyModelledRuleHasATest() throws {
        let tested = Set(try Self.testedRuleIDs())
        let claimed = ModelledRule.catalog.filter { $0.status.kind != "not-modelled" }
        #expect(claimed.count > 60, "the catalogue looks truncated")
        for rule in claimed where !tested.contains(rule.id) {
            Issue.record("""
                rule \(rule.id) (\(rule.summary)) is \(rule.status) but no test is named "\(rule.id): …": \
                add one in Tests/BackgroundTaskSimulatorTests/Rules, or mark it notModelled with the reason
                """)
        }
    }

    @Test("every tested rule id exists in the catalogue, so a typo cannot count as coverage")
    func testedIDsExist() throws {
        let known = Set(ModelledRule.catalog.map(\.id))
        for id in try Self.testedRuleIDs() where !known.contains(id) {
            Issue.record("a test is named with rule id \(id), which the catalogue does not list")
        }
    }

    @Test("the catalogue lists each rule id once and gives every unmodelled rule a reason")
    func catalogueIsWellFormed() {
        let ids = ModelledRule.catalog.map(\.id)
        #expect(Set(ids).count == ids.count)
        for rule in ModelledRule.catalog {
            if case .notModelled(let reason) = rule.status { #expect(!reason.isEmpty, "\(rule.id)") }
            if case .parameter(let name) = rule.status { #expect(!name.isEmpty, "\(rule.id)") }
        }
    }
}
