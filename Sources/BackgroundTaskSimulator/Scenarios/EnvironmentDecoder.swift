import DeterministicSimulation
import SimulationFormats

/// Reads `"environment"` (optional; every field optional, defaults from its `preset`, else from
/// ``EnvironmentConfig``).
enum EnvironmentDecoder {
    static func decode(_ root: inout JSONObjectReader) throws(ConfigError) -> EnvironmentConfig {
        guard var object = try root.optionalObject("environment") else { return EnvironmentConfig() }
        let preset = try object.optionalChoice("preset", as: EnvironmentPreset.self) ?? .standard
        var config = preset.configuration
        if var weights = try object.optionalObject("weights") {
            for action in EnvironmentAction.allCases {
                if let weight = try weights.optionalDouble(action.rawValue, in: 0...1_000_000) {
                    config.weights[action] = weight
                }
            }
            try weights.finish()
        }
        if let gaps = try range(&object, "gapSeconds", minimum: 0.001) { config.gaps = gaps }
        if let work = try range(&object, "workSeconds", minimum: 0) {
            config.work = EnvironmentConfig.WorkTiming(minimum: work.lowerBound, maximum: work.upperBound)
        }
        if var faults = try object.optionalObject("faults") {
            if let value = try faults.optionalProbability("beginFailureProbability") {
                config.faults.beginFailureProbability = value
            }
            if let value = try faults.optionalProbability("systemBusyProbability") {
                config.faults.systemBusyProbability = value
            }
            try faults.finish()
        }
        if let value = try object.optional("networkInitiallyAvailable", as: Bool.self) {
            config.networkInitiallyAvailable = value
        }
        if let value = try object.optional("externalPowerInitiallyConnected", as: Bool.self) {
            config.externalPowerInitiallyConnected = value
        }
        if let value = try object.optional("launchInBackgroundFirst", as: Bool.self) {
            config.launchInBackgroundFirst = value
        }
        config.concurrency = try ConcurrencyDecoder.decode(&object)
        try object.finish()
        return config
    }

    private static func range(
        _ object: inout JSONObjectReader, _ key: String, minimum: Double
    ) throws(ConfigError) -> ClosedRange<VirtualDuration>? {
        guard var range = try object.optionalObject(key) else { return nil }
        let low = try range.double("min", in: minimum...1_000_000)
        let high = try range.double("max", in: minimum...1_000_000)
        try range.finish()
        guard low <= high else {
            throw object.error(at: key, problem: "min (\(low)) is greater than max (\(high))",
                               fix: "Make 'min' no greater than 'max'.")
        }
        return ScenarioDecoder.duration(low)...ScenarioDecoder.duration(high)
    }
}
