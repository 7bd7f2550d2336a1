import DeterministicSimulation

extension OSProfile {
    /// Every built-in profile, oldest first.
    public static let all: [OSProfile] = [ios6, ios12, ios17, ios26]

    /// The profile with this short name, if any.
    public static func named(_ name: String) -> OSProfile? {
        all.first { $0.name == name }
    }

    /// The profile whose iOS versions include the one a name like `"ios18"` gives: the profiles are
    /// families (`ios6`: iOS 4-6, `ios12`: 7-12, `ios17`: 13-25, `ios26`: 26 on), so a version
    /// without a profile of its own is modelled by its family's. Nil for a name that is not
    /// `ios` and a number from 1 to 30 (a larger one is more likely a typo, such as "ios71").
    ///
    /// ```swift
    /// OSProfile.family(ofVersionNamed: "ios18")?.name   // "ios17"
    /// ```
    public static func family(ofVersionNamed name: String) -> OSProfile? {
        // Versions past the newest family's first by more than a few are typos ("ios71"), not iOS.
        guard name.hasPrefix("ios"), let version = Int(name.dropFirst(3)), (1...30).contains(version) else { return nil }
        return familyFirstVersions.last { version >= $0.firstVersion }.map(\.profile) ?? ios6
    }

    /// Each profile with the first iOS version of its family, oldest first.
    private static let familyFirstVersions: [(profile: OSProfile, firstVersion: Int)] =
        [(ios6, 4), (ios12, 7), (ios17, 13), (ios26, 26)]

    /// iOS 4-6: about 600 s (A4.1); no BGTaskScheduler, no task limit, no 30 s warning.
    public static let ios6 = OSProfile(
        name: "ios6", displayName: "iOS 6",
        budget: .seconds(600), backgroundLaunchBudget: .seconds(600),
        expiryLead: .seconds(4), expirationHandlerWatchdog: .seconds(3),
        budgetResetsOnForeground: true, expirationHandlerOrder: .beginOrder,
        taskLimit: nil, consoleWording: .legacy, endingInvalidLogs: true,
        longHeldTaskWarning: nil, longHeldTaskWarningInForeground: false,
        didEnterBackgroundLimit: .seconds(5), suspensionDelay: .seconds(1),
        forceQuitBlocksBackgroundLaunch: true,
        supportsScenes: false,
        hasTaskScheduler: false, hasContinuedProcessing: false,
        refreshRuntime: .seconds(30), processingRuntime: .seconds(300), taskExpiryLead: .seconds(4),
        maxPendingRefreshRequests: 1, maxPendingProcessingRequests: 10,
        continuedProcessingStallLimit: .seconds(30))

    /// iOS 7-12: 180 s from the foreground, 30 s after a background launch (A4.2); the task
    /// limit of about 1000 (A2.6, iOS 11+); silent pushes (D2, iOS 7+). BGTaskScheduler arrived in iOS 13, so none here.
    public static let ios12: OSProfile = {
        var profile = ios6
        profile.name = "ios12"
        profile.displayName = "iOS 12"
        profile.budget = .seconds(180)
        profile.backgroundLaunchBudget = .seconds(30)
        profile.taskLimit = 1000
        profile.silentPushEnabled = true  // D2: iOS 7+
        profile.backgroundFetchAvailable = true  // D3: iOS 7-12 (deprecated from 13)
        return profile
    }()

    /// iOS 13-25: about 30 s (A4.3), modern console wording (A5.2), the 30 s warning (A6.1),
    /// scenes (B1.3) and BGTaskScheduler (C).
    public static let ios17: OSProfile = {
        var profile = ios12
        profile.name = "ios17"
        profile.displayName = "iOS 17"
        profile.budget = .seconds(30)
        profile.backgroundLaunchBudget = .seconds(30)
        profile.consoleWording = .modern
        profile.longHeldTaskWarning = .seconds(30)
        profile.supportsScenes = true
        profile.hasTaskScheduler = true
        profile.backgroundFetchAvailable = false  // D3: replaced by BGAppRefreshTask
        return profile
    }()

    /// iOS 26: as iOS 17, plus BGContinuedProcessingTask (C6).
    public static let ios26: OSProfile = {
        var profile = ios17
        profile.name = "ios26"
        profile.displayName = "iOS 26"
        profile.hasContinuedProcessing = true
        return profile
    }()
}
