import DeterministicSimulation
import SimulationFormats

/// Reads `"environment": {"concurrency": {...}}` (optional; every field optional, defaults in
/// ``ConcurrencySettings``).
///
/// ```json
/// "concurrency": {"strategy": "pct", "pctDepth": {"min": 2, "max": 2}, "maxDelaySeconds": 5}
/// ```
enum ConcurrencyDecoder {
    static func decode(_ environment: inout JSONObjectReader) throws(ConfigError) -> ConcurrencySettings {
        var settings = ConcurrencySettings()
        guard var object = try environment.optionalObject("concurrency") else { return settings }
        if let enabled = try object.optional("enabled", as: Bool.self) { settings.enabled = enabled }
        if let strategy = try object.optionalChoice("strategy", as: ConcurrencySettings.Strategy.self) {
            settings.strategy = strategy
        }
        if var rates = try object.optionalObject("preemptionRate") {
            let low = try rates.double("min", in: 0...1)
            let high = try rates.double("max", in: 0...1)
            try rates.finish()
            guard low <= high else {
                throw object.error(at: "preemptionRate", problem: "min (\(low)) is greater than max (\(high))",
                                   fix: "Make 'min' no greater than 'max'.")
            }
            settings.preemptionRates = low...high
        }
        if var depths = try object.optionalObject("pctDepth") {
            let low = try depths.int("min", in: 1...10)
            let high = try depths.int("max", in: 1...10)
            try depths.finish()
            guard low <= high else {
                throw object.error(at: "pctDepth", problem: "min (\(low)) is greater than max (\(high))",
                                   fix: "Make 'min' no greater than 'max'.")
            }
            settings.pctDepths = low...high
        }
        if let bound = try object.optionalInt("pctStepBound", in: 1...100_000_000) { settings.pctStepBound = bound }
        if let delay = try object.optionalDouble("maxDelaySeconds", in: 0...86_400) {
            settings.maxDelay = ScenarioDecoder.duration(delay)
        }
        if let probability = try object.optionalProbability("delayProbability") {
            settings.delayProbability = probability
        }
        try object.finish()
        return settings
    }
}
