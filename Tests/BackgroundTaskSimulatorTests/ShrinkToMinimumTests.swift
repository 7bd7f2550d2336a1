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
            (6, "launch, home (the chunk is submitted), powerConnected, three launchBackgroundTask a minute apart or more: "
                + "the publish fails by timing out (a drawn duration past its 30 s timeout), so no networkDown is "
                + "needed (the table said 7 with a networkDown until the witness in minimumWitnesses was found)"),
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
        "receipt-upload-unguarded-did-complete-ios17":
            (4, "launch, home, earlyExpiry, open: the expiration handler's write on main needs the background, and "
                + "the upload worker's read of the flag comes only once the app runs again"),
        "gcd-photo-sync-ends-unconditionally-ios17":
            (2, "launch, home: a sync longer than the background time is ended by its handler, then by its completion"),
        "metrics-flush-lock-order-inversion-ios17":
            (2, "launch, home: the flush holds the queue's lock while it sends, and the background's expiry "
                + "comes during a send longer than the background time"),
        "video-upload-unguarded-upload-id-ios17":
            (2, "launch, home: the upload and its expiry handler race on the id in the first background stay"),
        "thumbnail-prefetch-completion-handler-set-after-start-ios17":
            (2, "launch, home: the prefetch starts on leaving the foreground, and its handler is stored meanwhile"),
        "bg-scheduler-app-p7-double-completion-ios17":
            (3, "launch, home, launchBackgroundTask: a BGTask is launched only while the app is not on screen"),
        "bg-scheduler-app-p8-refresh-not-resubmitted-ios17":
            (3, "launch, home, launchBackgroundTask: the refresh must run once in the background to be lost"),
        "chat-outbox-task-registered-after-begin-ios17": (2, "launch, home: the outbox task needs the background"),
        "download-manager-p1-overwritten-task-id-ios17":
            (4, "launch, home, open, home: two background entries before the first download ends"),
        "download-manager-p1-overwritten-task-id-ios17-exhaustive":
            (4, "launch, home, open, home, as above; the first failure comes from the exhaustive search"),
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
        "journal-sync-cursor-saved-through-data-source-ios17": (2, "launch, home: the sync and its cursor save run in the background"),
        "journal-sync-handler-ends-in-task-ios17": (2, "launch, home: the expiry needs the background"),
        "photo-import-unawaited-thumbnail-tasks-ios17": (2, "launch, home: the import's token ends before its tasks do"),
        "inbox-sync-child-ignores-cancellation-ios17":
            (2, "launch, home: a contacts fetch longer than the background time (work lasts up to 40 s) outlives the expiry"),
        "podcast-downloads-continuation-never-resumed-ios17":
            (3, "launch, home, launchBackgroundTask: the processing task's expiry needs its launch"),
        "forecast-refresh-retry-ignores-cancellation-ios17":
            (2, "launch and the settling home: a fetch still running at the expiry goes on after the task ends "
                + "(found by the shrinker once issue 19 changed the campaign's first failure)"),
        "health-upload-handler-returns-before-upload-ios17":
            (3, "launch, home, launchBackgroundTask: the handler must run in the background, and the refresh "
                + "submitted at launch is due only 900 s later (its earliestBeginDate). The environment's gaps are "
                + "at most 90 s, so a run whose every tick acts needs 10 gaps after the launch: 11 actions (launch, "
                + "home, 8 more that neither relaunch nor reopen for good, launchBackgroundTask at 900 s or later). "
                + "But a tick may act on nothing (an idle step: its action skipped, its gap kept), so the 15 minutes "
                + "cost no actions; the skipAllBut pass finds this"),
        "upload-queue-saved-only-on-terminate-ios17":
            (3, "launch, home, then a jetsam or force-quit of the suspended app: the queue changed in the foreground"),
        "message-outbox-lost-connection-counted-as-sent-ios17":
            (3, "launch, home, networkDown: the send starts on entering the background and the network must fail it"),
        "push-mail-sync-completion-called-twice-ios17":
            (2, "launch, silentPush: the fetch must fail, and a drawn duration past its 20 s timeout fails it (D2)"),
        "push-mail-sync-completion-missing-on-failure-ios17":
            (2, "launch, silentPush: a fetch that times out at 20 s leaves the push uncompleted at 30 s (D2)"),
        "weather-fetch-completion-only-on-new-data-ios12":
            (3, "launch, home, backgroundFetch: fetches come only in the background; one with no new data is never answered (D3)"),
        "bg-scheduler-app-never-completed-when-unchanged-ios17":
            (3, "launch, home, launchBackgroundTask: the request is submitted in the background, then launched"),
        "offline-articles-complete-protection-at-night-ios17":
            (3, "launch, lock, launchBackgroundTask more than 10 s after the lock: the refresh's 15-minute earliest "
                + "begin passes in idle steps (ticks that act on nothing), as for health-upload"),
        "shared-notes-lock-held-across-suspension-ios17":
            (2, "launch, home: the save's transaction is open when its task expires in the background"),
        "quote-watchlist-polling-tied-to-view-appearance-ios17":
            (2, "launch, home: a refresh in flight when the app leaves the foreground"),
        "sketch-autosave-ignores-expired-ios17":
            (2, "launch, home: the save starts on leaving the foreground, and a write longer than the background "
                + "time (work lasts up to 40 s) is still in flight at the expiry"),
        "actor-reentrancy-claims-after-await-ios17":
            (2, "launch (a flush counts the photos), home (a second flush passes the same check): the first to "
                + "finish ends the other's task in the background"),
        "video-export-reuses-identifier-ios26":
            (3, "launch (the first export), then the app must become active again in the same process: home and "
                + "open, or an incoming call and its end"),
        "gallery-uploads-completion-before-events-ios17":
            (2, "launch, home: the photos taken at launch are uploaded on entering the background; the app is "
                + "suspended, and the finished uploads wake it (D1)"),
        "gallery-uploads-identifier-per-launch-ios17":
            (3, "launch, home, memoryPressureKill of the suspended app while its uploads run: only a relaunch makes "
                + "the session with another identifier (D1)"),
        "gallery-uploads-handler-kept-by-view-controller-ios17":
            (3, "launch, home, memoryPressureKill: only a background relaunch lacks the view controller (D1, B1.3)"),
        "price-alerts-paused-in-low-power-mode-ios17":
            (4, "launch, home, launchBackgroundTask (a refresh runs only in the background and never in Low Power "
                + "Mode), lowPowerModeOn while the check runs: it ends in Low Power Mode and cancels its next request"),
        "reading-list-scheduled-once-at-install-ios17":
            (5, "launch (the flag is set), home (an update comes only off screen), appUpdate (the request is dropped), "
                + "launch (the flag is trusted) and the settling home: the chain is judged at the end of the run"),
        "main-actor-uploader-ends-again-after-expiry-ios17":
            (2, "launch, home: the upload's task is begun on entering the background and its expiry needs the background"),
        "episode-download-retries-until-it-works-ios17":
            (3, "launch, home, open: expiry cancels the download and its token ends the task, and once the app runs again the cancelled loop spins"),
        "sleep-retry-sleep-swallows-cancellation-ios17":
            (2, "launch, home: a request cut by the expiry is sent again after the token ended"),
        "unstructured-task-fire-and-forget-thumbnails-ios17":
            (2, "launch, home: the sync's token ends before its fire-and-forget thumbnails upload does"),
        "main-actor-model-cancel-saves-progress-after-end-ios17":
            (2, "launch, home: the backup's task is begun on entering the background and its expiry needs the background"),
        "main-actor-model-cancel-handler-only-cancels-ios17":
            (2, "launch, home: the handler runs only at an expiry, which needs the background"),
        "refresh-never-cancelled-expiry-never-cancels-task-ios17":
            (3, "launch, home (the request is submitted on entering the background), launchBackgroundTask"),
        "audiobook-download-without-expiry-handler-ios17":
            (2, "launch and the settling home: the shortest chapter (20 s) ends while the app is open, so the download "
                + "begun on entering the background meets the expiry with no handler"),
    ]

    /// Planted scenarios the shrinker does not yet bring near their minimum, with the reason.
    /// None: the last, track-backup (10 actions against 7: a relaunched process draws in another
    /// order than the first, so deleting the first process's actions at action boundaries
    /// misplaced the second backup's draws), reaches 7 with the `deleteShifted` pass.
    static let knownShortfalls: [String: String] = [:]

    /// A run of exactly the stated minimum, found by hand from the shrunk run (deleting draws
    /// across action boundaries, raising a drawn duration), for every known shortfall and every
    /// minimum the shrinker did not reach exactly when it was stated: the minimum is reachable.
    static let minimumWitnesses: [String: String] = [
        // Found by hand while the shrinker stopped at 10 (deleting draws across action
        // boundaries, the swarm mix kept); the shrinker now reaches 7 itself (deleteShifted).
        "deep-track-backup-keeps-task-when-giving-up-ios17":
            "c1.AQQCAAECAwAEAAEDAwQEBQMDAAEEAwMBAAUKAQDz7QIAAQEBAgGu8NwBBQIAAQCj2QQSBQEC07YLAp-f1AgFAQAABQECuoAsAcfIegUA",
        // The shrunk run (7 actions) without its networkDown, the publish's duration raised past 30 s.
        "deep-photo-index-publish-failure-leaves-task-ios17":
            "c1.AQABAAAAAQAAAQABAAAAAAAAAAABAAAAAAAGAQAAAgADAAECAQUBA9KKrB8DBgEDyobRGQAAAAADAQOOqfsYAAADAAAAAsDw9Qs",
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
        for name in Self.knownShortfalls.keys.sorted() {
            #expect(Self.minimumWitnesses[name] != nil, "a known shortfall needs a run of its minimum: \(name)")
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

    @Test("a witnessed minimum (every known shortfall has one) is a run of exactly that many actions",
          arguments: minimumWitnesses.keys.sorted())
    func minimumIsReachable(name: String) throws {
        let scenario = try ScenarioLoader.load(file: ScenarioExpectationTests.directory + "/" + name + ".json")
        guard case .violation(let invariant) = scenario.expectation else { return }
        let minimum = try #require(Self.minimalActions[name])
        let token = try #require(Self.minimumWitnesses[name], "give a run of \(minimum.actions) actions for \(name)")
        let replay = ChoiceSource(replaying: try ChoiceSequence(token: token))
        let verdict = SimulationTarget(spec: scenario.runSpec).run(choices: replay, keepTrace: true)
        #expect(verdict.failures.contains { $0.invariant == invariant }, "bgsim replay Scenarios/\(name).json --choices \(token)")
        #expect(verdict.trace.filter(\.isEnvironmentAction).count == minimum.actions)
    }
}

extension TraceLine {
    /// Whether the line is an environment action (`env.home`), not a device change the action
    /// caused (`env.network`, `env.backgroundRefresh`).
    var isEnvironmentAction: Bool {
        name.hasPrefix("env.") && name != "env.network" && name != "env.backgroundRefresh"
    }
}
