import SimulationFormats

/// Why reports cannot be merged (or read): one line naming the report and the field.
///
/// ```swift
/// do { _ = try CampaignReport.merge([a, b]) } catch { print(error) }
/// // report 2: $.summary.runs: missing required key 'runs'; give campaign reports of schemaVersion 1, as a campaign wrote them
/// ```
package struct CampaignReportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, already naming the report (1-based, in argument order) and field.
    public var problem: String
    /// How to fix it.
    public var fix: String

    public init(problem: String, fix: String) {
        self.problem = problem
        self.fix = fix
    }

    public var description: String { "\(problem); \(fix)" }

    /// A reading error of the shared JSON reader, as a report error: `report N: $.path: problem`.
    init(_ error: ConfigError) {
        self.init(problem: "\(error.file): \(error.path): \(error.problem)",
                  fix: "give campaign reports of schemaVersion 1, as a campaign wrote them")
    }
}
