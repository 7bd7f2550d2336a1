/// One iOS rule the simulator is built on (ids explained in the `IOSBackgroundRules` article) and
/// what the simulator promises about it.
///
/// ```swift
/// let rule = ModelledRule.catalog.first { $0.id == "A3.7" }!
/// print(rule.status)   // parameter OSProfile.expiryLead
/// ```
public struct ModelledRule: Sendable, Equatable {
    /// The rule id, e.g. `A3.5`.
    public var id: String
    /// What the rule says, in a few words.
    public var summary: String
    public var status: Status

    /// Whether and how the simulator implements the rule.
    public enum Status: Sendable, Equatable, CustomStringConvertible {
        /// Implemented as stated; a test named with the rule id checks it.
        case modelled
        /// Implemented with the behaviour behind a parameter (an UNCERTAIN rule, or a number that
        /// varies): the parameter's name.
        case parameter(String)
        /// Not implemented, with the reason.
        case notModelled(String)

        public var description: String {
            switch self {
            case .modelled: "modelled"
            case .parameter(let name): "modelled as parameter \(name)"
            case .notModelled(let reason): "not modelled: \(reason)"
            }
        }

        /// `modelled`, `parameter` or `not-modelled`.
        public var kind: String {
            switch self {
            case .modelled: "modelled"
            case .parameter: "parameter"
            case .notModelled: "not-modelled"
            }
        }
    }
}
