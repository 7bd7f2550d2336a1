import BackgroundTaskSimulator
import BGSimCommands
import Foundation
import Testing

/// Issue 18 part 5: the rule ids and bug patterns that code, README and `bgsim list` cite are
/// explained in the repository's own DocC articles, not in files outside it.
@Suite struct RepositoryDocumentsTests {
    static let docc = PackageRoot.path + "/Sources/BackgroundTaskSimulator/BackgroundTaskSimulator.docc/"

    static func text(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    /// Every Swift source and Markdown file under Sources/, plus README.md and Scenarios/README.md.
    static func citingFiles() -> [String] {
        let sources = PackageRoot.path + "/Sources"
        let files = (FileManager.default.enumerator(atPath: sources)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".swift") || $0.hasSuffix(".md") }.sorted().map { sources + "/" + $0 }
        return files + [PackageRoot.path + "/README.md", PackageRoot.path + "/Scenarios/README.md"]
    }

    /// The table rows of the rules article, by id.
    static func ruleRows() throws -> [String: String] {
        var rows: [String: String] = [:]
        for line in try text(docc + "IOSBackgroundRules.md").split(separator: "\n") where line.hasPrefix("| ") {
            let id = line.dropFirst(2).prefix { $0 != " " }
            rows[String(id)] = String(line)
        }
        return rows
    }

    @Test("every rule id cited in Sources/ and README has a row in the rules article")
    func citedRuleIdsAreExplained() throws {
        let rows = try Self.ruleRows()
        let pattern = /(?:^|[^A-Za-z0-9_.])([A-F][0-9]{1,2}\.[0-9]{1,2})(?![0-9])/
        var cited: [String] = []
        for file in Self.citingFiles() where !file.hasSuffix("IOSBackgroundRules.md") {
            for match in try Self.text(file).matches(of: pattern) {
                let id = String(match.output.1)
                #expect(rows[id] != nil, "\(file) cites \(id), which IOSBackgroundRules.md does not explain")
                cited.append(id)
            }
        }
        #expect(cited.count > 100, "the scan found the citations (\(cited.count))")
    }

    @Test("the rules article lists every catalogue rule with its status in the simulator")
    func everyCatalogueRule() throws {
        let rows = try Self.ruleRows()
        for rule in ModelledRule.catalog {
            let row = try #require(rows[rule.id], "\(rule.id) has no row")
            let status = switch rule.status {
            case .modelled: "modelled; a test named after the id checks it"
            case .parameter: "parameter: `"
            case .notModelled: "not modelled: "
            }
            #expect(row.contains(status), "\(rule.id): the article says otherwise than \(rule.status)")
            #expect(row.contains("documented") || row.contains("DTS") || row.contains("observed")
                || row.contains("uncertain"), "\(rule.id) gives no evidence")
        }
        #expect(rows.count == ModelledRule.catalog.count + 1, "one row per rule, plus the table header")
    }

    @Test("every planted-bug scenario is explained in the bug patterns article")
    func plantedScenariosAreExplained() throws {
        let article = try Self.text(Self.docc + "BugPatterns.md")
        let scenarios = try ScenarioLoader.loadAll(in: PackageRoot.path + "/Scenarios")
        let planted = scenarios.filter { $0.expectation != .pass }
        #expect(planted.count >= 25)
        for scenario in planted {
            #expect(article.contains("`\(scenario.name)`"), "\(scenario.name) is not in BugPatterns.md")
        }
        for id in 1...8 { #expect(article.contains("### P\(id): ")) }
    }

    @Test("README, sources and bgsim list point inside the repository, never to ../shared or reference/")
    func noOutsideReferences() throws {
        for file in Self.citingFiles() {
            let text = try Self.text(file)
            #expect(!text.contains("../shared") && !text.contains("reference/ios-background")
                && !text.contains("reference/bug-patterns"), "\(file) cites a document outside the repository")
        }
        let list = CLIRun(["list"])
        #expect(list.stdout.contains("each id explained in Sources/BackgroundTaskSimulator/BackgroundTaskSimulator.docc/IOSBackgroundRules.md"))
        #expect(list.stdout.contains("the planted bugs are explained in Sources/BackgroundTaskSimulator/BackgroundTaskSimulator.docc/BugPatterns.md"))
        for article in ["IOSBackgroundRules.md", "BugPatterns.md"] {
            #expect(FileManager.default.fileExists(atPath: Self.docc + article))
        }
    }
}
