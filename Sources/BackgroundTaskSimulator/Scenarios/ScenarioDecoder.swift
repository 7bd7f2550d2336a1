import DeterministicSimulation
import SimulationFormats

/// Turns a scenario document into a ``Scenario``, field by field, with precise errors.
enum ScenarioDecoder {
    static let maxSeconds = 10_000_000.0

    static func decode(
        _ root: inout JSONObjectReader, file: String, workloads: WorkloadRegistry = .builtIn
    ) throws(ConfigError) -> Scenario {
        let name = try root.required("name", as: String.self)
        if let problem = ScenarioName.problem(in: name) {
            throw root.error(at: "name", problem: problem,
                             fix: "Use a kebab-case name such as 'token-correct-ios17': printable characters, no spaces, "
                                + "'/' or '\\', not starting with '.', at most \(ScenarioName.maxBytes) bytes.")
        }
        let summary = try root.optional("description", as: String.self) ?? ""
        let workload = try decodeWorkload(&root, workloads: workloads)
        let profile = try ProfileDecoder.decode(&root)
        let environment = try EnvironmentDecoder.decode(&root)
        let campaign = try decodeCampaign(&root)
        let invariants = try decodeInvariants(&root, workload: workload)
        let expectation = try decodeExpectation(&root, invariants: invariants)
        let requiredProbes = try decodeRequiredProbes(&root)
        try root.finish()
        var scenario = Scenario(name: name, file: file, summary: summary, workload: workload, profile: profile,
                                environment: environment, campaign: campaign, invariants: invariants,
                                expectation: expectation)
        scenario.requiredProbes = requiredProbes
        return scenario
    }

    static func decodeWorkload(
        _ root: inout JSONObjectReader, workloads: WorkloadRegistry
    ) throws(ConfigError) -> WorkloadCatalog.Variant {
        let names = workloads.workloadNames
        let workload = try root.string("workload", oneOf: names)
        let variants = workloads.variants.filter { $0.workload == workload }.map(\.variant)
        let variant = try root.string("variant", oneOf: variants)
        guard let entry = workloads.variant(workload: workload, variant: variant) else {
            throw root.error(at: "variant", problem: "no variant '\(variant)' of '\(workload)'",
                             fix: "Run 'bgsim list' to see the workloads and their variants.")
        }
        return entry
    }

    static func decodeCampaign(_ root: inout JSONObjectReader) throws(ConfigError) -> Scenario.CampaignDefaults {
        var campaign = try root.object("campaign")
        let limit = Scenario.CampaignDefaults.runsRange
        let runs = try campaign.int("runs", in: limit,
                                    fix: "Set 'runs' to a number of runs from 1 to \(limit.upperBound).")
        let seedText = try campaign.required("seed", as: String.self,
                                             fix: "Write the seed as a string, e.g. \"0x00000000000000a1\".")
        let seed: Seed
        do {
            seed = try Seed(parsing: seedText)
        } catch {
            throw campaign.error(at: "seed", problem: error.description,
                                 fix: "Write \"0x\" and up to 16 hex digits, or a decimal number.")
        }
        let horizon = try campaign.double("horizonSeconds", in: 1...1_000_000,
                                          fix: "Set 'horizonSeconds' from 1 to 1000000 (virtual seconds).")
        let steps = try campaign.optionalInt("maxStepsPerRun", in: 100...100_000_000) ?? 1_000_000
        let timeout = try campaign.optionalDouble(
            "runTimeoutSeconds", in: 0.1...86_400,
            fix: "Set 'runTimeoutSeconds' from 0.1 to 86400 (wall-clock seconds per run), or leave it out (60 s).")
        let named = try campaign.optionalChoice(
            "strategy", as: ExplorationStrategy.self,
            fix: "Set 'strategy' to one of \(ExplorationStrategy.names), or leave it out (default).")
        let strategy = named ?? .default
        let depth = try decodeDepth(&campaign, strategy: strategy)
        try campaign.finish()
        return Scenario.CampaignDefaults(runs: runs, seed: seed, horizon: VirtualTime(microseconds: micros(horizon)),
                                         maxStepsPerRun: steps, runTimeoutSeconds: timeout, strategy: strategy,
                                         namesStrategy: named != nil, depth: depth)
    }

    static func decodeInvariants(
        _ root: inout JSONObjectReader, workload: WorkloadCatalog.Variant
    ) throws(ConfigError) -> [Invariant] {
        let applicable = Invariant.all.filter { $0.applies(workload.info) }
        guard let value = root.value("invariants") else { return applicable }
        if case .string("all") = value.value { return applicable }
        let ids = Invariant.all.map(\.id)
        var chosen: [Invariant] = []
        for element in try value.array() {
            let id = try element.string(oneOf: ids)
            guard let invariant = Invariant.named(id) else { continue }
            if chosen.contains(where: { $0.id == id }) {
                throw element.error("'\(id)' is listed twice", fix: "List each invariant once.")
            }
            chosen.append(invariant)
        }
        if chosen.isEmpty {
            throw root.error(at: "invariants", problem: "the list of invariants is empty",
                             fix: "Name at least one invariant, or write \"all\".")
        }
        return chosen
    }

    static func decodeExpectation(
        _ root: inout JSONObjectReader, invariants: [Invariant]
    ) throws(ConfigError) -> Scenario.Expectation {
        let value = try root.requiredValue("expect", expected: "\"pass\" or {\"violation\": \"<invariant id>\"}")
        if case .string(let text) = value.value {
            guard text == "pass" else {
                throw value.error("expected \"pass\" or {\"violation\": …}, found \"\(text)\"",
                                  fix: "Write \"pass\" for a correct workload.")
            }
            return .pass
        }
        var object = try value.object()
        let id = try object.string("violation", oneOf: invariants.map(\.id) + Invariant.processLevel.map(\.id),
                                   fix: "Name an invariant this scenario checks (see 'invariants'), or no-crash/no-hang.")
        try object.finish()
        return .violation(id)
    }

    /// `"requiredProbes": ["name", …]`: probes (`WorkloadContext.probe(_:)`) the campaign must hit.
    static func decodeRequiredProbes(_ root: inout JSONObjectReader) throws(ConfigError) -> [String] {
        guard let elements = try root.optionalArray("requiredProbes") else { return [] }
        var names: [String] = []
        for element in elements {
            let name = try element.read(as: String.self)
            guard WorkloadRegistry.isKebabCase(name) else {
                throw element.error("the probe name '\(name)' is not kebab-case",
                                    fix: "Use the name the workload passes to context.probe(_:), e.g. 'retry-after-expiry'.")
            }
            if names.contains(name) {
                throw element.error("'\(name)' is listed twice", fix: "List each probe once.")
            }
            names.append(name)
        }
        return names
    }

    /// Whole microseconds from seconds (round to nearest).
    static func micros(_ seconds: Double) -> Int64 {
        Int64((seconds * 1_000_000).rounded())
    }

    static func duration(_ seconds: Double) -> VirtualDuration {
        VirtualDuration(microseconds: micros(seconds))
    }
}
