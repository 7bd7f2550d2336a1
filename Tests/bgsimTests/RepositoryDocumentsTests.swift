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
            #expect(!text.contains("../shared") && !text.contains("CONTRACT.md") && !text.contains("reference/ios-background")
                && !text.contains("reference/bug-patterns"), "\(file) cites a document outside the repository")
        }
        let list = CLIRun(["list"])
        #expect(list.stdout.contains("each id explained in BackgroundTaskKit's Sources/BackgroundTaskSimulator/BackgroundTaskSimulator.docc/IOSBackgroundRules.md"))
        #expect(list.stdout.contains("the planted bugs are explained in BackgroundTaskKit's Sources/BackgroundTaskSimulator/BackgroundTaskSimulator.docc/BugPatterns.md"))
        for article in ["IOSBackgroundRules.md", "BugPatterns.md"] {
            #expect(FileManager.default.fileExists(atPath: Self.docc + article))
        }
    }
}

/// The newcomer's findings of issue 18 part 5, each pinned.
@Suite struct NewcomerFindingsTests {
    @Test("every scenario has its own campaign seed (P5 and P6 shared one)")
    func distinctSeeds() throws {
        let scenarios = try ScenarioLoader.loadAll(in: PackageRoot.path + "/Scenarios")
        var seen: [(seed: String, name: String)] = []
        for scenario in scenarios {
            let seed = scenario.campaign.seed.description
            if let other = seen.first(where: { $0.seed == seed }) {
                Issue.record("\(scenario.name) and \(other.name) share the seed \(seed)")
            }
            seen.append((seed, scenario.name))
        }
    }

    @Test("every workload Scenarios/README.md names is one the parser accepts")
    func readmeWorkloadsExist() throws {
        let readme = try String(contentsOfFile: PackageRoot.path + "/Scenarios/README.md", encoding: .utf8)
        let row = try #require(readme.split(separator: "\n").first { $0.hasPrefix("| `workload` |") })
        let named = row.matches(of: /`([a-z0-9-]+)`/).map { String($0.output.1) }.filter { $0 != "workload" }
        #expect(named.count >= 19)
        let known = WorkloadCatalog.all.map(\.workload)
        for name in named { #expect(known.contains(name), "Scenarios/README.md names '\(name)', not a workload") }
        for name in known { #expect(named.contains(name), "Scenarios/README.md does not list '\(name)'") }
    }

    @Test("check on a Markdown file says it is not a scenario file (65), not that JSON has no comments")
    func markdownIsNotAScenario() {
        for command in [["check"], ["fuzz"], ["replay", "--seed", "1"]] {
            let run = CLIRun(command + [PackageRoot.path + "/Scenarios/README.md"])
            #expect(run.code == .dataError)
            #expect(run.errorLines.count == 1)
            #expect(run.stderr.contains("README.md: not a scenario file (a .md file); scenarios are JSON files named *.json"))
            #expect(!run.stderr.contains("comment"))
        }
    }

    @Test("--runs and campaign.runs take the same range")
    func runsLimits() {
        let folder = TemporaryFolder()
        let range = Scenario.CampaignDefaults.runsRange
        let over = folder.write("over.json", ScenarioText.replacing(#""runs": 10"#, with: #""runs": \#(range.upperBound + 1)"#))
        let file = CLIRun(["check", over])
        #expect(file.code == .dataError && file.stderr.contains("from 1 to \(range.upperBound)"))
        let flag = CLIRun(["fuzz", PackageRoot.scenario("token-correct-ios17.json"), "--runs", "\(range.upperBound + 1)"])
        #expect(flag.code == .usage && flag.stderr.contains("from 1 to \(range.upperBound)"))
        let atLimit = folder.write("limit.json", ScenarioText.replacing(#""runs": 10"#, with: #""runs": \#(range.upperBound)"#))
        #expect((try? ScenarioLoader.load(file: atLimit)) != nil, "the largest --runs is a valid campaign.runs")
    }

    @Test("the README's opening counts the invariants the harness has")
    func readmeCountsTheInvariants() throws {
        let words = try RepositoryDocumentsTests.text(PackageRoot.path + "/README.md")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        // The simulator's invariants, and no-crash and no-hang, which isolated runs check.
        let counted = words.contains("checks \(Invariant.all.count + 2) invariants")
        #expect(counted, "README.md's opening must say it checks \(Invariant.all.count + 2) invariants")
    }
}
