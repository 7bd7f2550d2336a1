import DeterministicSimulation

/// A scheduler whose interleaving choices all replay as 0 (the first candidate) unless given,
/// plus a log that jobs append to.
final class SchedulerHarness {
    let choices: ChoiceSource
    let scheduler: Scheduler
    var log: [String] = []

    init(choices: [UInt64] = []) {
        self.choices = ChoiceSource(replaying: ChoiceSequence(choices))
        scheduler = Scheduler(choices: self.choices)
    }

    init(seed: Seed) {
        choices = ChoiceSource(seed: seed)
        scheduler = Scheduler(choices: choices)
    }

    /// A job that logs `name`.
    func job(_ name: String) -> () -> Void {
        { [unowned self] in self.log.append(name) }
    }

    /// A job that logs `name@time-in-microseconds`.
    func timedJob(_ name: String) -> () -> Void {
        { [unowned self] in self.log.append("\(name)@\(self.scheduler.now.microseconds)") }
    }
}
