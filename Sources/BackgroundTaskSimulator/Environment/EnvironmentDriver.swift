import DeterministicSimulation

/// Drives the device through a run: after each action it draws a gap, then draws the next action
/// among those possible in the app's state at that moment, weighted by the scenario.
///
/// Contract: every decision comes from the run's choices; with choice value 0 everywhere the run
/// is the simplest possible: before each action the driver draws whether to go on acting (almost
/// always yes when random; 0, the simplest value, means "no more actions"), so a shrinker that
/// truncates or zeroes choices gets a shorter run, never a longer one. Then a gap (0 = the
/// shortest) and the action (0 = the first possible). It stops drawing at the horizon;
/// ``settle()`` then sends the app home once, so every open task meets its budget. Every action
/// (the launch and the settling `home` included) is marked in the run's choices
/// (``ChoiceSource/markAction(firstDraw:stopDraw:skippable:choice:)``), so their number is the number of `env.`
/// events and a shrinker can delete actions as units. A tick whose action a replayed sequence
/// skips is marked as an idle step (``ChoiceSource/markIdleStep(stopDraw:)``): time passed and
/// nothing was done, which a shrinker keeps when it skips other actions in place.
final class EnvironmentDriver {
    /// The device the driver acts on; not retained (its jobs capture the driver).
    private let deviceReference: DeviceReference
    var device: SimulatedDevice { deviceReference.device }
    private let horizon: VirtualTime
    /// The run's choices and the device's scheduler and system queue (fixed for a run).
    let choices: ChoiceSource
    private let scheduler: Scheduler
    private let systemQueue: QueueID
    private let gaps: ClosedRange<VirtualDuration>
    /// Each action's weight in thousandths, by ``EnvironmentAction/index`` (the scenario's
    /// weights are fixed for a run, so they are rounded once, not on every draw).
    private let weightTable: [UInt64]
    /// The pending job that draws the next action.
    private var tick: JobID?
    /// The position of the go-on draw before the pending tick (its action's `stopDraw`): kept
    /// here, not captured, so the tick's closure captures `self` alone and allocates no context.
    private var tickStopDraw = 0
    /// Scratch for one draw, owned by the driver (allocated once, freed in `deinit`; a draw
    /// allocates nothing and checks no uniqueness): the possible actions, the first
    /// ``candidateCount`` of ``candidates``, and their weights. One slot per action is enough,
    /// since each action is possible at most once per draw.
    let candidates: UnsafeMutablePointer<EnvironmentAction>
    let candidateWeights: UnsafeMutablePointer<UInt64>
    var candidateCount = 0
    /// Whether silent pushes can come: the profile has them and the app declares the
    /// `remote-notification` background mode (D2). Fixed for a run.
    let receivesPushes: Bool
    /// Whether background fetches can come: the profile has them (iOS 7-12), the app declares the
    /// `fetch` mode and no BGTaskScheduler identifiers (D3, C2.7). Fixed for a run.
    let fetchesInBackground: Bool

    init(device: SimulatedDevice, horizon: VirtualTime) {
        self.deviceReference = DeviceReference(device, owner: "EnvironmentDriver")
        self.horizon = horizon
        self.choices = device.choices
        self.scheduler = device.scheduler
        self.systemQueue = device.systemQueue
        self.gaps = device.environment.gaps
        let weights = device.environment.weights
        self.receivesPushes = device.profile.silentPushEnabled
            && device.workload.backgroundModes.contains("remote-notification")
        self.fetchesInBackground = device.profile.backgroundFetchAvailable
            && device.workload.backgroundModes.contains("fetch") && !device.workload.usesTaskScheduler
        self.weightTable = EnvironmentAction.allCases.map { UInt64((weights[$0] * 1_000).rounded()) }
        let slots = EnvironmentAction.allCases.count
        self.candidates = .allocate(capacity: slots)
        self.candidates.initialize(repeating: .launch, count: slots)
        self.candidateWeights = .allocate(capacity: slots)
        self.candidateWeights.initialize(repeating: 0, count: slots)
    }

    deinit {
        candidates.deallocate()  // trivial elements: nothing to deinitialize
        candidateWeights.deallocate()
    }

    /// Launches the first process at time zero and starts drawing actions.
    func start() {
        let first: EnvironmentAction = device.environment.launchInBackgroundFirst ? .launchBackgroundTask : .launch
        device.scheduler.async(on: device.systemQueue) { [self] in
            choices.markAction(firstDraw: choices.drawCount, stopDraw: choices.drawCount)
            device.emit(.action(first))
            if first == .launch {
                device.launchProcess(inBackground: false)
            } else if !device.taskScheduler.launchFirstEligible() {
                device.launchProcess(inBackground: true)  // B2.2
            }
            scheduleNext()
        }
    }

    /// Stops random actions and, if the app is on screen, sends it home (the liveness phase).
    func settle() {
        if let tick { device.scheduler.cancel(tick) }
        tick = nil
        guard let app = device.liveApp, app.state.isForeground else { return }
        choices.markAction(firstDraw: choices.drawCount, stopDraw: choices.drawCount)
        device.emit(.action(.home))
        app.enterBackground()
    }

    /// The chance of drawing another action: so close to 1 that random runs reach the horizon,
    /// yet a recorded choice the shrinker can set to "stop".
    static let keepActingProbability = 0.999_999

    /// Draws whether to go on, the gap, and schedules the next action. A marked action owns the
    /// draws from its own draw to the next action's (carrying it out, the next gap, the app's
    /// reaction); the go-on draw before it is where the run can stop short of it.
    private func scheduleNext() {
        let stopDraw = choices.drawCount
        if let log = choices.exploration { noteNode(log) }
        let goesOn = choices.bool(probability: Self.keepActingProbability)
        // Exhaustive search: stop here, or one more action (which costs 1 of the depth).
        choices.exploration?.branch(position: stopDraw, alternatives: [0, 1], extraCost: 1)
        guard goesOn else { return }
        tickStopDraw = stopDraw
        let gap = choices.duration(in: gaps)
        guard scheduler.now + gap <= horizon else { return }
        tick = scheduler.asyncAfter(gap, on: systemQueue) { [self] in
            tick = nil
            let firstDraw = choices.drawCount
            if let action = drawAction() {
                // Skippable when the action was drawn (more than one possible) rather than forced.
                let drawn = choices.drawCount > firstDraw
                choices.markAction(firstDraw: firstDraw, stopDraw: tickStopDraw, skippable: drawn,
                                   choice: drawn && choices.isReplaying ? actionChoice(action) : nil)
                device.emit(.action(action))
                perform(action)
            } else {
                // Time passed and nothing was done: the shrinker keeps such steps when it skips an action.
                choices.markIdleStep(stopDraw: tickStopDraw)
            }
            scheduleNext()
        }
    }

    /// The drawn action as a shrinker can re-aim it (``ActionChoice``): its place among all the
    /// environment actions, and the candidates it was drawn among, in their order. Built only
    /// in replays (a campaign's random runs keep no marks).
    private func actionChoice(_ action: EnvironmentAction) -> ActionChoice {
        ActionChoice(outcome: action.ordinal, possible: (0..<candidateCount).map { candidates[$0].ordinal })
    }

    /// Draws the next action among the possible ones, weighted by the scenario; `nil` (drawing
    /// nothing) when none is possible or every possible one has weight 0, and when a replayed
    /// sequence skips it (``ChoiceSource/optionalIndex(weights:)``).
    private func drawAction() -> EnvironmentAction? {
        collectPossibleActions()
        let count = candidateCount
        var anyWeight = false
        for position in 0..<count {
            let weight = weightTable[candidates[position].ordinal]
            candidateWeights[position] = weight
            if weight > 0 { anyWeight = true }
        }
        guard count > 0, anyWeight else { return nil }
        // A replayed value past the candidates skips the action (a shrinker's edit); random runs never do.
        let drawPosition = choices.drawCount
        guard let position = choices.optionalIndex(weights: UnsafeBufferPointer(start: candidateWeights, count: count))
        else { return nil }
        if let log = choices.exploration, choices.drawCount > drawPosition { noteActionBranch(log, position: drawPosition) }
        return candidates[position]
    }
}
