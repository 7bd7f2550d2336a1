import BackgroundTaskSimulator
import DeterministicSimulation
import SimulationFormats

/// `bgsim list [--json]`: workloads, invariants, scenarios, OS profiles and the modelled iOS
/// rules, so users can see what the simulator promises.
enum ListCommand: BGSimCommand {
    static let declaration = CommandDeclaration(
        name: "list", abstract: "workloads, invariants, scenarios, OS profiles and the modelled iOS rules",
        options: [
            .flag("--json", help: "print JSON instead of text"),
            .valued("--scenarios", "DIR", help: "the folder of scenarios to list (default: Scenarios)"),
        ])

    struct Options {
        var json: Bool
        /// The folder `--scenarios` named, or `nil` for the default `Scenarios`.
        var scenariosDirectory: String?
    }

    static func validate(_ args: Arguments) throws(CLIError) -> Options {
        Options(json: args.flag("--json"), scenariosDirectory: args.value("--scenarios"))
    }

    /// Lists the scenarios of `--scenarios DIR` (a missing or unreadable folder is 66, as for any
    /// named input), or of `Scenarios` when there is one (a user's own bgsim may have none).
    static func run(_ options: Options, io: CommandIO, interrupt: Interrupt) throws(CLIError) -> ExitCode {
        let directory = options.scenariosDirectory ?? "Scenarios"
        let scenarios: [Scenario]
        if options.scenariosDirectory != nil || ScenarioLoader.isDirectory(directory) {
            do {
                scenarios = try ScenarioLoader.loadAll(in: directory, workloads: io.workloads)
            } catch {
                throw ScenarioPaths.cliError(error)
            }
        } else {
            scenarios = []
        }
        if options.json {
            io.writeOut(JSONWriter().string(for: json(scenarios: scenarios, workloads: io.workloads)))
        } else {
            text(scenarios: scenarios, io: io)
        }
        return .success
    }

    static func text(scenarios: [Scenario], io: CommandIO) {
        io.out("Workloads (workload / variant: what it does [expects]; the planted bugs are explained in "
            + "\(Documents.named(Documents.bugPatterns))):")
        for entry in io.workloads.variants {
            io.out("  \(entry.workload) / \(entry.variant): \(entry.info.summary) [\(entry.expectationText)]")
        }
        io.out()
        io.out("Invariants:")
        for invariant in Invariant.all + Invariant.processLevel {
            let references = invariant.references.isEmpty ? "" : " (\(invariant.references.joined(separator: ", ")))"
            io.out("  \(invariant.id): \(invariant.rule)\(references)")
        }
        io.out()
        io.out("Concurrency strategies (environment.concurrency.strategy):")
        for strategy in ConcurrencySettings.Strategy.allCases {
            io.out("  \(strategy.rawValue): \(strategy.summary)")
        }
        io.out()
        io.out("Exploration strategies (campaign.strategy, fuzz/check --strategy; not the thread interleaving above):")
        for strategy in ExplorationStrategy.allCases {
            io.out("  \(strategy.rawValue): \(strategy.summary)")
        }
        io.out()
        io.out("Scenarios:")
        if scenarios.isEmpty { io.out("  (none found)") }
        for scenario in scenarios {
            io.out("  \(scenario.name): \(scenario.workload.workload)/\(scenario.workload.variant) on "
                + "\(scenario.profile.name), \(scenario.campaign.runs) runs, expect \(scenario.expectation)")
        }
        io.out()
        io.out("OS profiles:")
        for profile in OSProfile.all {
            io.out("  \(profile.name) (\(profile.displayName)): budget \(profile.budget), expiry lead "
                + "\(profile.expiryLead), BGTaskScheduler \(profile.hasTaskScheduler ? "yes" : "no")")
        }
        io.out()
        let rules = ModelledRule.catalog
        let modelled = rules.filter { $0.status.kind != "not-modelled" }.count
        io.out("iOS rules (\(modelled) of \(rules.count) modelled; each id explained in \(Documents.named(Documents.iOSRules))):")
        for rule in rules {
            io.out("  \(rule.id) \(rule.summary): \(rule.status)")
        }
    }

    static func json(scenarios: [Scenario], workloads: WorkloadRegistry = .builtIn) -> JSONValue {
        var root = JSONObject()
        root.append("workloads", .array(workloads.variants.map { entry in
            var object = JSONObject()
            object.append("workload", .string(entry.workload))
            object.append("variant", .string(entry.variant))
            object.append("summary", .string(entry.info.summary))
            object.append("bugPattern", entry.bugPattern.map { .string($0) } ?? .null)
            object.append("expect", .string(entry.expectationText))
            return .object(object)
        }))
        root.append("invariants", .array((Invariant.all + Invariant.processLevel).map { invariant in
            var object = JSONObject()
            object.append("id", .string(invariant.id))
            object.append("rule", .string(invariant.rule))
            object.append("references", .array(invariant.references.map { .string($0) }))
            return .object(object)
        }))
        root.append("strategies", .array(ConcurrencySettings.Strategy.allCases.map { strategy in
            var object = JSONObject()
            object.append("name", .string(strategy.rawValue))
            object.append("summary", .string(strategy.summary))
            return .object(object)
        }))
        root.append("explorationStrategies", .array(ExplorationStrategy.allCases.map { strategy in
            .object(["name": .string(strategy.rawValue), "summary": .string(strategy.summary)])
        }))
        root.append("scenarios", .array(scenarios.map { scenario in
            var object = JSONObject()
            object.append("name", .string(scenario.name))
            object.append("file", .string(scenario.file))
            object.append("workload", .string(scenario.workload.workload))
            object.append("variant", .string(scenario.workload.variant))
            object.append("profile", .string(scenario.profile.name))
            object.append("runs", .int(Int64(scenario.campaign.runs)))
            object.append("seed", .string(scenario.campaign.seed.description))
            object.append("expect", .string(scenario.expectation.description))
            object.append("strategy", .string(scenario.strategy.rawValue))
            return .object(object)
        }))
        root.append("profiles", .array(OSProfile.all.map { profile in
            var object = JSONObject()
            object.append("name", .string(profile.name))
            object.append("displayName", .string(profile.displayName))
            object.append("budgetSeconds", .double(Double(profile.budget.microseconds) / 1_000_000))
            object.append("expiryLeadSeconds", .double(Double(profile.expiryLead.microseconds) / 1_000_000))
            object.append("taskScheduler", .bool(profile.hasTaskScheduler))
            return .object(object)
        }))
        root.append("rules", .array(ModelledRule.catalog.map { rule in
            var object = JSONObject()
            object.append("id", .string(rule.id))
            object.append("summary", .string(rule.summary))
            object.append("status", .string(rule.status.kind))
            object.append("detail", .string(rule.status.description))
            return .object(object)
        }))
        return .object(root)
    }
}
