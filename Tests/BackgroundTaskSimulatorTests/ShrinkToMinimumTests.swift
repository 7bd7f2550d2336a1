import BackgroundTaskSimulator
import DeterministicSimulation
import Testing

/// Every planted-bug scenario's first failure (in campaign order, as `fuzz` and `check` find it)
/// shrinks to at most its minimal number of environment actions plus one, and the shrunk choices
/// replay to the same violation. Actions are the trace's `env.` actions, the launch and the
/// settling `home` at the horizon included. Shrink times are measured in a release build by
/// `bgsim bench` (the `shrink` rows), not here.
@Suite struct ShrinkToMinimumTests {
    /// The fewest environment actions a run needs to violate the scenario's expected invariant,
    /// and why no run does with fewer.
    static let minimalActions: [String: (actions: Int, why: String)] = [
        "deep-photo-index-publish-failure-leaves-task-ios17":
            (7, "launch, home (the chunk is submitted), powerConnected, three launchBackgroundTask, networkDown"),
        "deep-reader-prefetch-lost-digest-keeps-task-ios17":
            (7, "launch, home (refreshes launch only in the background), four launchBackgroundTask, networkDown"),
        "deep-track-backup-keeps-task-when-giving-up-ios17":
            (7, "launch, home, then networkDown, networkUp twice and a third networkDown during the last retry"),
        "analytics-flush-p2-handler-does-not-end-ios17":
            (2, "launch, home: the task is begun on entering the background and its expiry needs the background"),
        "analytics-flush-slow-expiration-handler-ios17":
            (2, "launch, home: the handler runs only at an expiry, which needs the background"),
        "background-queue-p3-async-end-ios17": (2, "launch, home: the queue's task is begun in the background"),
        "backup-p4-unconditional-end-ios17":
            (2, "launch, home: a backup longer than the background time (work lasts up to 40 s) ends its task twice"),
        "bg-scheduler-app-p6-late-registration-ios17": (1, "launch: registration comes after didFinishLaunching"),
        "bg-scheduler-app-p7-double-completion-ios17":
            (3, "launch, home, launchBackgroundTask: a BGTask is launched only while the app is not on screen"),
        "bg-scheduler-app-p8-refresh-not-resubmitted-ios17":
            (3, "launch, home, launchBackgroundTask: the refresh must run once in the background to be lost"),
        "chat-outbox-task-registered-after-begin-ios17": (2, "launch, home: the outbox task needs the background"),
        "download-manager-p1-overwritten-task-id-ios17":
            (4, "launch, home, open, home: two background entries before the first download ends"),
        "feed-refresh-main-blocked-across-deadline-ios17": (2, "launch, home: the deadline needs the background"),
        "notes-import-handler-syncs-busy-queue-ios17":
            (2, "launch, home: the import and its expiry need the background"),
        "photo-sync-unguarded-task-id-ios17": (2, "launch, home: the sync begins its task in the background"),
        "token-p5-unretained-token-ios17": (2, "launch, home: the token's work runs in the background"),
        "voice-memos-main-sync-in-handler-ios17": (2, "launch, home: the handler runs at the background's expiry"),
        "workout-export-lock-order-inversion-ios17": (2, "launch, home: the export runs in the background"),
        "news-digest-second-refresh-identifier-ios17":
            (2, "launch and the settling home: the second submit fails at launch; the chain is judged at the end"),
        "token-retained-by-its-handler-ios17": (2, "launch, home: the upload and its idle task need the background"),
        "background-queue-operation-never-finishes-ios17":
            (2, "launch, home: the chain is queued on entering the background and stalls there"),
        "journal-sync-detached-cursor-save-ios17": (2, "launch, home: the sync and its detached save run in the background"),
        "journal-sync-handler-ends-in-task-ios17": (2, "launch, home: the expiry needs the background"),
        "photo-import-unawaited-thumbnail-tasks-ios17": (2, "launch, home: the import's token ends before its tasks do"),
        "inbox-sync-child-ignores-cancellation-ios17":
            (2, "launch, home: a contacts fetch longer than the background time (work lasts up to 40 s) outlives the expiry"),
        "token-async-plain-task-ios17": (2, "launch, home: the save's plain Task starts on entering the background"),
        "podcast-downloads-continuation-never-resumed-ios17":
            (3, "launch, home, launchBackgroundTask: the processing task's expiry needs its launch"),
        "forecast-refresh-retry-ignores-cancellation-ios17":
            (2, "launch and the settling home: a fetch still running at the expiry goes on after the task ends "
                + "(found by the shrinker once issue 19 changed the campaign's first failure)"),
        "health-upload-handler-returns-before-upload-ios17":
            (3, "launch, home, launchBackgroundTask: the handler must run in the background"),
        "upload-queue-saved-only-on-terminate-ios17":
            (3, "launch, home, then a jetsam or force-quit of the suspended app: the queue changed in the foreground"),
        "message-outbox-lost-connection-counted-as-sent-ios17":
            (3, "launch, home, networkDown: the send starts on entering the background and the network must fail it"),
        "bg-scheduler-app-never-completed-when-unchanged-ios17":
            (3, "launch, home, launchBackgroundTask: the request is submitted in the background, then launched"),
    ]

    /// Planted scenarios the shrinker does not yet bring near their minimum, with the reason.
    static let knownShortfalls: [String: String] = [
        "deep-reader-prefetch-lost-digest-keeps-task-ios17":
            "shrinks to about 47 actions: the four refreshes must each come a minute after the last, and deleting "
            + "the actions between them moves the launches before their earliest begin dates",
        "deep-track-backup-keeps-task-when-giving-up-ios17":
            "shrinks to 9 actions: two extra actions keep the network toggles inside the 1 s back-offs",
        "health-upload-handler-returns-before-upload-ios17":
            "shrinks to about 78 actions: the violation needs the upload task still running at a later background "
            + "entry, and deleting any action moves the async task's timing",
    ]

    /// The planted-bug scenarios of `Scenarios/`, with their expected invariant.
    static let planted: [String] = ScenarioExpectationTests.files.filter { file in
        guard let scenario = try? ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/" + file),
              case .violation = scenario.expectation else { return false }
        return true
    }

    @Test("every planted-bug scenario states its minimal number of environment actions here")
    func everyPlantedScenarioHasAMinimum() {
        #expect(Self.planted.count >= 15)
        for file in Self.planted {
            let name = String(file.dropLast(".json".count))
            #expect(Self.minimalActions[name] != nil,
                    "state the minimal environment actions of \(name) in minimalActions")
        }
    }

    @Test("the planted bug shrinks to at most its minimal environment actions + 1 and replays", arguments: planted)
    func shrinksNearTheMinimum(file: String) throws {
        let scenario = try ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/" + file)
        guard case .violation(let invariant) = scenario.expectation else { return }
        let minimum = try #require(Self.minimalActions[scenario.name], "no minimum stated for \(scenario.name)")
        let planted = try #require(scenario.shrinkPlantedBug(), "\(invariant) not found in the campaign of \(file)")
        let result = planted.shrink
        let nearMinimum = {
            #expect(result.actionCount <= minimum.actions + 1,
                    """
                    \(scenario.name) shrank to \(result.actionCount) actions (minimum \(minimum.actions): \(minimum.why)); \
                    from \(planted.originalActionCount): bgsim replay Scenarios/\(file) --choices \(result.choices.token)
                    """)
        }
        if let shortfall = Self.knownShortfalls[scenario.name] {
            withKnownIssue(Comment(rawValue: shortfall)) { nearMinimum() }
        } else {
            nearMinimum()
        }
        #expect(result.actionCount >= minimum.actions, "fewer actions than the stated minimum: correct the table")
        let target = SimulationTarget(spec: scenario.runSpec)
        let keeps: (RunVerdict) -> Bool = { verdict in verdict.failures.contains { $0.invariant == invariant } }
        let replay = ChoiceSource(replaying: result.choices)
        let verdict = target.run(choices: replay, keepTrace: true)
        #expect(keeps(verdict), "bgsim replay Scenarios/\(file) --choices \(result.choices.token)")
        #expect(verdict.eventCount == result.eventCount)
        #expect(replay.actions.count == result.actionCount)
        #expect(verdict.trace.filter(\.isEnvironmentAction).count == result.actionCount)
    }
}

extension TraceLine {
    /// Whether the line is an environment action (`env.home`), not a device change the action
    /// caused (`env.network`, `env.backgroundRefresh`).
    var isEnvironmentAction: Bool {
        name.hasPrefix("env.") && name != "env.network" && name != "env.backgroundRefresh"
    }
}
