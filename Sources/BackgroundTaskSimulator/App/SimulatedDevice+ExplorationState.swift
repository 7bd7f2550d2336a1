public import DeterministicSimulation

/// A workload's own state, for the state hash of a bounded exhaustive search (`--strategy
/// exhaustive`): adopt it when the workload keeps state that its tasks, jobs and requests do not
/// show (a retry counter, a queue of pending uploads), so that two runs in different states are
/// not taken for one.
///
/// ```swift
/// extension OutboxSender: ExplorationStateHashing {
///     func hashExplorationState(into hasher: inout StableHasher) {
///         hasher.combine(pendingMessages.count)
///     }
/// }
/// ```
///
/// Contract: feed only values that are equal in every process for equal states (counts, names,
/// flags; no object addresses, no `Hasher`, no absolute time).
public protocol ExplorationStateHashing: AnyObject {
    /// Feeds the workload's state into `hasher`.
    func hashExplorationState(into hasher: inout StableHasher)
}

extension SimulatedDevice {
    /// The stable hash of what decides the rest of the run, for an exhaustive search's
    /// deduplication (``ExhaustiveSearch``); nil when the state cannot be hashed (a simulated
    /// thread holds a job suspended mid-stack).
    ///
    /// ```swift
    /// if let hash = device.explorationStateHash() { log.node(position: choices.drawCount, stateHash: hash) }
    /// ```
    ///
    /// What it covers: the device's switches (network, Background App Refresh, power, Low Power
    /// Mode, a force quit's block, the screen lock); the live process's lifecycle state and flags, its open
    /// background tasks (name, age, whether an expiration handler was set or called, warned), its
    /// budget used and background session (time to its deadline, expired), its running BGTasks,
    /// registrations and pending launches, and the workload's own state when it adopts
    /// ``ExplorationStateHashing``; the pending BGTask requests (identifier, kind, eligible now);
    /// every queue's pending jobs with their due times relative to now
    /// (``Scheduler/hashPendingWork(into:)``). What it leaves out, on purpose: absolute virtual
    /// time, task and job numbers and the number of processes so far (history, not state), the
    /// invariant checkers' records, and the state inside the workload's objects unless it
    /// adopts the protocol. Two states equal on all of that are taken for one (the abstraction of
    /// a stateless model checker's state hashing; see the ExplorationStrategies article).
    func explorationStateHash() -> UInt64? {
        guard scheduler.isHashableState else { return nil }
        var hasher = StableHasher()
        hasher.combine(isNetworkAvailable)
        hasher.combine(isBackgroundRefreshEnabled)
        hasher.combine(isOnExternalPower)
        hasher.combine(isLowPowerModeEnabled)
        hasher.combine(blockedByForceQuit)
        hasher.combine(storage.isLocked)
        if let app = liveApp {
            hasher.combine(true)
            app.hashExplorationState(into: &hasher, now: now)
        } else {
            hasher.combine(false)
        }
        let service = taskScheduler
        let eligible = service.eligibleRequests().map(\.identifier)
        hasher.combine(service.pending.count)
        for request in service.pending {
            hasher.combine(request.identifier)
            hasher.combine(request.kind.name)
            hasher.combine(eligible.contains(request.identifier))
        }
        scheduler.hashPendingWork(into: &hasher)
        return hasher.finalize()
    }
}

extension SimulatedApplication {
    /// Feeds the process's state into `hasher` (see ``SimulatedDevice/explorationStateHash()``).
    fileprivate func hashExplorationState(into hasher: inout StableHasher, now: VirtualTime) {
        let core = self.core
        hasher.combine(String(describing: core.state))
        hasher.combine(core.hasFinishedLaunching)
        hasher.combine(core.inAppSwitcher)
        hasher.combine(core.inDidEnterBackground)
        hasher.combine(core.terminationPending)
        hasher.combine(core.sceneConnected)
        hasher.combine(core.backgroundLaunched)
        hasher.combine(core.budgetUsed.microseconds)
        hasher.combine(core.openTasks.count)
        for task in core.openTasks {
            hasher.combine(task.name)
            hasher.combine((now - task.createdAt).microseconds)
            hasher.combine(task.handler != nil)
            hasher.combine(task.handlerCalled)
            hasher.combine(task.warned)
        }
        if let session = core.session {
            hasher.combine((session.deadline - now).microseconds)
            hasher.combine(session.expired)
        } else {
            hasher.combine(-1 as Int64)
        }
        hasher.combine(core.runningTasks.count)
        for task in core.runningTasks {
            hasher.combine(task.identifier)
            hasher.combine(task.isCompleted)
            hasher.combine(task.expiring)
        }
        hasher.combine(core.registrations.map(\.identifier).joined(separator: ","))
        hasher.combine(core.launchesAfterStartup.count)
        hasher.combine(core.pushesAwaitingCompletion)
        hasher.combine(core.modeAssertions)
        hasher.combine(core.screen?.isOnTop ?? false)
        if let workload = core.workload as? any ExplorationStateHashing {
            workload.hashExplorationState(into: &hasher)
        }
    }
}
