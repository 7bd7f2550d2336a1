/// The workloads scenario files may name: the built-in catalogue, a user's own, or both. Every
/// command and loader takes one (``builtIn`` by default), so a user's `bgsim` runs their scenario
/// files with the same flags, reports and exit codes as ours.
///
/// ```swift
/// let registry = try WorkloadRegistry([
///     WorkloadInfo(name: "upload-manager/correct", summary: "ends its task once") { UploadManagerWorkload() },
///     WorkloadInfo(name: "upload-manager/leaks-on-expiry", summary: "forgets the task on expiry") { LeakyUpload() },
/// ])
/// let scenario = try ScenarioLoader.load(file: "Scenarios/upload-correct.json", workloads: registry)
/// ```
///
/// Contract: a workload's ``WorkloadInfo/name`` is `family/variant`, both kebab-case (lowercase
/// letters, digits and single hyphens); a scenario names them as `"workload": "family"` and
/// `"variant": "variant"`. Names are unique within a registry (a user's workload may not reuse a
/// built-in name when both are included). Order is kept: `bgsim list` shows workloads as given.
public struct WorkloadRegistry: Sendable {
    /// Every variant, in order.
    public let variants: [WorkloadCatalog.Variant]

    /// The package's own demonstration workloads (``WorkloadCatalog/all``).
    public static let builtIn = WorkloadRegistry(checkedVariants: WorkloadCatalog.all)

    private init(checkedVariants: [WorkloadCatalog.Variant]) {
        variants = checkedVariants
    }

    /// A registry of `workloads`, after the built-in ones when `includingBuiltIn` is set.
    ///
    /// - Throws: ``WorkloadRegistryError`` naming the workload whose name is not `family/variant`
    ///   in kebab-case, or that is given twice.
    public init(_ workloads: [WorkloadInfo], includingBuiltIn: Bool = false) throws(WorkloadRegistryError) {
        var variants = includingBuiltIn ? WorkloadCatalog.all : []
        for info in workloads {
            let parts = info.name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, parts.allSatisfy(Self.isKebabCase) else {
                throw WorkloadRegistryError(
                    name: info.name,
                    problem: "is not 'family/variant' in kebab-case",
                    fix: "Name it like 'upload-manager/correct' or 'upload-manager/leaks-on-expiry'.")
            }
            if variants.contains(where: { $0.workload == parts[0] && $0.variant == parts[1] }) {
                throw WorkloadRegistryError(
                    name: info.name, problem: "is registered twice",
                    fix: "Give each workload variant its own name"
                        + (includingBuiltIn ? " (built-in names are taken: see 'bgsim list')." : "."))
            }
            variants.append(WorkloadCatalog.Variant(
                workload: parts[0], variant: parts[1], bugPattern: nil, expectedViolation: nil, info: info,
                isBuiltIn: false))
        }
        self.variants = variants
    }

    /// The variant with these names, if any.
    public func variant(workload: String, variant: String) -> WorkloadCatalog.Variant? {
        variants.first { $0.workload == workload && $0.variant == variant }
    }

    /// The names of the workload families, in order, without repeats.
    public var workloadNames: [String] {
        var names: [String] = []
        for entry in variants where !names.contains(entry.workload) { names.append(entry.workload) }
        return names
    }

    static func isKebabCase(_ text: String) -> Bool {
        guard let first = text.first, first.isASCII, first.isLowercase || first.isNumber, text.last != "-" else {
            return false
        }
        return !text.contains("--") && text.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
    }
}

/// A workload that cannot be registered: its name and what is wrong with it.
public struct WorkloadRegistryError: Error, Sendable, CustomStringConvertible {
    public let name: String
    public let problem: String
    public let fix: String

    public var description: String { "workload '\(name)' \(problem). \(fix)" }
}
