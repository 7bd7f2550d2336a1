import DeterministicSimulation
import SimulationFormats

/// Reads `"profile"`: a profile name, or `{"base": name, <overrides>}` (every UNCERTAIN rule of
/// the reference is a parameter here).
enum ProfileDecoder {
    static let seconds = 0.0...1_000_000.0

    /// The fix for a version name with no profile of its own ("ios18"): its family's profile,
    /// never the nearest spelling ("ios12" is one edit from "ios18" and models another era).
    static func familyFix(_ text: String) -> String? {
        guard OSProfile.named(text) == nil, let family = OSProfile.family(ofVersionNamed: text) else { return nil }
        let version = text.dropFirst(3)
        return "iOS \(version) has no profile of its own: it is modelled by the \"\(family.name)\" family; "
            + "write \"\(family.name)\"."
    }

    static func decode(_ root: inout JSONObjectReader) throws(ConfigError) -> OSProfile {
        let names = OSProfile.all.map(\.name)
        let value = try root.requiredValue("profile", expected: "a profile name or an object with 'base'")
        if case .string = value.value {
            return OSProfile.named(try value.string(oneOf: names, fixFor: familyFix))!
        }
        var object = try value.object()
        var profile = OSProfile.named(try object.string("base", oneOf: names, fixFor: familyFix))!
        func duration(_ key: String, _ field: WritableKeyPath<OSProfile, VirtualDuration>) throws(ConfigError) {
            if let value = try object.optionalDouble(key, in: seconds) {
                profile[keyPath: field] = ScenarioDecoder.duration(value)
            }
        }
        try duration("budgetSeconds", \.budget)
        try duration("backgroundLaunchBudgetSeconds", \.backgroundLaunchBudget)
        try duration("expiryLeadSeconds", \.expiryLead)
        try duration("expirationHandlerWatchdogSeconds", \.expirationHandlerWatchdog)
        try duration("didEnterBackgroundLimitSeconds", \.didEnterBackgroundLimit)
        try duration("suspensionDelaySeconds", \.suspensionDelay)
        try duration("refreshRuntimeSeconds", \.refreshRuntime)
        try duration("processingRuntimeSeconds", \.processingRuntime)
        try duration("taskExpiryLeadSeconds", \.taskExpiryLead)
        try duration("continuedProcessingStallLimitSeconds", \.continuedProcessingStallLimit)
        try duration("willTerminateLimitSeconds", \.willTerminateLimit)
        try duration("memoryWarningLeadSeconds", \.memoryWarningLead)
        try duration("completeProtectionLockDelaySeconds", \.completeProtectionLockDelay)
        try duration("launchWatchdogLimitSeconds", \.launchWatchdogLimit)
        try duration("lateBeginWindowSeconds", \.lateBeginWindow)
        if let chance = try object.optionalDouble("lateBeginLosesRaceProbability", in: 0...1) {
            profile.lateBeginLosesRaceProbability = chance
        }
        if let chance = try object.optionalDouble("batchLaunchProbability", in: 0...1) {
            profile.batchLaunchProbability = chance
        }
        if let chance = try object.optionalDouble("appUpdateDropsPendingRequestsProbability", in: 0...1) {
            profile.appUpdateDropsPendingRequestsProbability = chance
        }
        try duration("silentPushRuntimeSeconds", \.silentPushRuntime)
        try duration("silentPushMinimumIntervalSeconds", \.silentPushMinimumInterval)
        if let chance = try object.optionalDouble("memoryWarningBeforeJetsamProbability", in: 0...1) {
            profile.memoryWarningBeforeJetsamProbability = chance
        }
        func flag(_ key: String, _ field: WritableKeyPath<OSProfile, Bool>) throws(ConfigError) {
            if let value = try object.optional(key, as: Bool.self) { profile[keyPath: field] = value }
        }
        try flag("budgetResetsOnForeground", \.budgetResetsOnForeground)
        try flag("endingInvalidLogs", \.endingInvalidLogs)
        try flag("longHeldTaskWarningInForeground", \.longHeldTaskWarningInForeground)
        try flag("willTerminateOnJetsam", \.willTerminateOnJetsam)
        try flag("willTerminateOnForceQuit", \.willTerminateOnForceQuit)
        try flag("forceQuitBlocksBackgroundLaunch", \.forceQuitBlocksBackgroundLaunch)
        try flag("continuedProcessingQueueOutlivesProcess", \.continuedProcessingQueueOutlivesProcess)
        try flag("killsOnSharedFileLockAtSuspension", \.killsOnSharedFileLockAtSuspension)
        try flag("lowPowerModeHoldsBackgroundTasks", \.lowPowerModeHoldsBackgroundTasks)
        try flag("silentPushEnabled", \.silentPushEnabled)
        try flag("backgroundModeAssertionsHoldApp", \.backgroundModeAssertionsHoldApp)
        try flag("backgroundFetchAvailable", \.backgroundFetchAvailable)
        try duration("backgroundFetchRuntimeSeconds", \.backgroundFetchRuntime)
        try duration("backgroundSessionEventsRuntimeSeconds", \.backgroundSessionEventsRuntime)
        try flag("backgroundSessionExpiryTerminates", \.backgroundSessionExpiryTerminates)
        if let chance = try object.optionalDouble("backgroundTransferFailureProbability", in: 0...1) {
            profile.backgroundTransferFailureProbability = chance
        }
        try duration("accessoryWakeWindowSeconds", \.accessoryWakeWindow)
        try flag("debuggerAttached", \.debuggerAttached)  // A7.3
        try duration("backgroundTimeRemainingErrorSeconds", \.backgroundTimeRemainingError)  // A8.5
        if let chance = try object.optionalDouble("submitDropProbability", in: 0...1) {  // C2.5
            profile.submitDropProbability = chance
        }
        try duration("asynchronousSubmitDelaySeconds", \.asynchronousSubmitDelay)  // C2.6
        try flag("runsInSimulator", \.runsInSimulator)  // C5.3
        try flag("supportsBackgroundGPU", \.supportsBackgroundGPU)  // C6.5
        if let order = try object.optionalChoice("expirationHandlerOrder", as: OSProfile.ExpirationHandlerOrder.self) {
            profile.expirationHandlerOrder = order
        }
        if let wording = try object.optionalChoice("consoleWording", as: OSProfile.ConsoleWording.self) {
            profile.consoleWording = wording
        }
        if let limit = try object.optionalInt("taskLimit", in: 1...1_000_000) { profile.taskLimit = limit }
        if let limit = try object.optionalInt("maxPendingRefreshRequests", in: 0...1_000) {
            profile.maxPendingRefreshRequests = limit
        }
        if let limit = try object.optionalInt("maxPendingProcessingRequests", in: 0...1_000) {
            profile.maxPendingProcessingRequests = limit
        }
        if let warning = try object.optionalDouble("longHeldTaskWarningSeconds", in: seconds) {
            profile.longHeldTaskWarning = ScenarioDecoder.duration(warning)
        }
        if let limit = try object.optionalDouble("idleTaskLimitSeconds", in: seconds) {
            profile.idleTaskLimit = ScenarioDecoder.duration(limit)
        }
        try object.finish()
        if profile.expiryLead > profile.budget {
            throw root.error(at: "profile", problem: "expiryLeadSeconds is longer than budgetSeconds",
                             fix: "Make the expiry lead shorter than the budget.")
        }
        return profile
    }
}
