import DeterministicSimulation

/// Drives the device through a run: after each action it draws a gap, then draws the next action
/// among those possible in the app's state at that moment, weighted by the scenario.
///
/// Contract: every decision comes from the run's choices; with choice value 0 everywhere the run
/// is the simplest possible: before each action the driver draws whether to go on acting (almost
/// always yes when random; 0, the simplest value, means "no more actions"), so a shrinker that
/// truncates or zeroes choices gets a shorter run, never a longer one. Then a gap (0 = the
/// shortest) and the action (0 = the first possible). It stops drawing at the horizon;
/// ``settle()`` then sends the app home once, so every open task meets its budget.
final class EnvironmentDriver {
    unowned let device: SimulatedDevice
    private let horizon: VirtualTime
    // Hot state is @exclusivity(unchecked): a run is confined to one thread and no access to
    // it spans a call that could reach it again; the dynamic check cost more than the access.
    @exclusivity(unchecked) private var tick: JobID?

    init(device: SimulatedDevice, horizon: VirtualTime) {
        self.device = device
        self.horizon = horizon
    }

    /// Launches the first process at time zero and starts drawing actions.
    func start() {
        let first: EnvironmentAction = device.environment.launchInBackgroundFirst ? .launchBackgroundTask : .launch
        device.scheduler.async(on: device.systemQueue) { [self] in
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
        device.emit(.action(.home))
        app.enterBackground()
    }

    /// The chance of drawing another action: so close to 1 that random runs reach the horizon,
    /// yet a recorded choice the shrinker can set to "stop".
    static let keepActingProbability = 0.999_999

    private func scheduleNext() {
        guard device.choices.bool(probability: Self.keepActingProbability) else { return }
        let gap = device.choices.duration(in: device.environment.gaps)
        guard device.now + gap <= horizon else { return }
        tick = device.scheduler.asyncAfter(gap, on: device.systemQueue) { [self] in
            tick = nil
            let candidates = possibleActions()
            let weights = candidates.map { UInt64((device.environment.weights[$0] * 1_000).rounded()) }
            if !candidates.isEmpty, weights.contains(where: { $0 > 0 }) {
                let action = candidates[device.choices.index(weights: weights)]
                device.emit(.action(action))
                perform(action)
            }
            scheduleNext()
        }
    }
}
