import DeterministicSimulation

/// The trace event of the sweep workload: which job ran, on which queue.
struct SweepEvent: TraceEventRepresentable {
    let label: String
    let queue: Int

    func hash(into hasher: inout StableHasher) {
        hasher.combine(label)
        hasher.combine(queue)
    }

    var name: String { "job" }

    var fields: [TraceField] {
        [TraceField("label", .string(label)), TraceField("queue", .int(Int64(queue)))]
    }
}

/// A small app-like workload on four queues (main, two serial, one concurrent of width 3) whose
/// delays, timer periods, fan-out and suspensions are all drawn from one ``ChoiceSource``, and
/// whose every job records its label in a trace.
final class SweepWorkload {
    /// What one run produced.
    struct Outcome {
        let digest: TraceDigest
        let recorded: ChoiceSequence
        let stop: SchedulerStop
        let events: Int
        let fallbacks: Int
    }

    let choices: ChoiceSource
    let scheduler: Scheduler
    let trace = TraceRecorder<SweepEvent>(keepsEntries: false)
    let io: QueueID
    let db: QueueID
    let workers: QueueID
    var ticks = 0
    var tickLimit = 0
    var ticker = JobID(rawValue: 0)

    init(choices: ChoiceSource, concurrency: (ConcurrencyConfiguration, SimulatedThreadPool)? = nil) {
        self.choices = choices
        scheduler = Scheduler(choices: choices)
        if let (configuration, pool) = concurrency {
            scheduler.enableControlledConcurrency(configuration, pool: pool)
        }
        io = scheduler.makeQueue(label: "io", kind: .serial)
        db = scheduler.makeQueue(label: "db", kind: .serial)
        workers = scheduler.makeQueue(label: "workers", kind: .concurrent(width: 3))
    }

    /// Runs the workload for a random run seed.
    static func run(seed: Seed) -> Outcome {
        run(choices: ChoiceSource(seed: seed))
    }

    /// Runs the workload with the given choices (random or replaying) for 50 ms of virtual time,
    /// optionally on simulated threads (it has no scheduling points, so nothing changes).
    static func run(
        choices: ChoiceSource, concurrency: (ConcurrencyConfiguration, SimulatedThreadPool)? = nil
    ) -> Outcome {
        let workload = SweepWorkload(choices: choices, concurrency: concurrency)
        workload.start()
        let stop = workload.scheduler.run(until: .milliseconds(50), maxSteps: 10_000)
        workload.scheduler.discardPendingJobs()
        return Outcome(
            digest: workload.trace.digest, recorded: choices.recorded, stop: stop,
            events: workload.trace.count, fallbacks: choices.fallbackCount)
    }

    func record(_ label: String, on queue: QueueID) {
        trace.record(SweepEvent(label: label, queue: queue.rawValue), at: scheduler.now)
    }

    func start() {
        let main = scheduler.mainQueue
        scheduler.async(on: main) { [unowned self] in
            record("launch", on: main)
            for request in 0..<6 { startRequest(request) }
            startTicker()
            scheduleSuspension()
        }
    }

    /// A request: start on a worker, I/O after a drawn delay, then the database, then main.
    func startRequest(_ request: Int) {
        let delay = VirtualDuration.microseconds(Int64(choices.int(in: 0...3_000)))
        scheduler.asyncAfter(delay, on: workers) { [unowned self] in
            record("req\(request).start", on: workers)
            if choices.bool(probability: 0.4) {
                let retry = VirtualDuration.microseconds(Int64(choices.int(in: 100...5_000)))
                scheduler.asyncAfter(retry, on: workers) { [unowned self] in
                    record("req\(request).retry", on: workers)
                }
            }
            let ioDelay = VirtualDuration.microseconds(Int64(choices.int(in: 0...2_000)))
            scheduler.asyncAfter(ioDelay, on: io) { [unowned self] in
                record("req\(request).io", on: io)
                scheduler.async(on: db) { [unowned self] in
                    record("req\(request).db", on: db)
                    scheduler.async(on: scheduler.mainQueue) { [unowned self] in
                        record("req\(request).done", on: scheduler.mainQueue)
                    }
                }
            }
        }
    }

    /// A repeating timer on the I/O queue with a drawn period, cancelling itself after a drawn
    /// number of fires.
    func startTicker() {
        let period = VirtualDuration.microseconds(Int64(choices.int(in: 500...4_000)))
        tickLimit = choices.int(in: 2...8)
        ticker = scheduler.repeating(every: period, on: io) { [unowned self] in
            ticks += 1
            record("tick\(ticks)", on: io)
            if ticks >= tickLimit { scheduler.cancel(ticker) }
        }
    }

    /// Freezes the database queue at a drawn time for a drawn duration (a suspended subsystem).
    func scheduleSuspension() {
        let at = VirtualTime(microseconds: Int64(choices.int(in: 0...10_000)))
        let length = VirtualDuration.microseconds(Int64(choices.int(in: 0...8_000)))
        let kind = choices.pick(from: ["short", "long"])
        scheduler.async(at: at, on: scheduler.mainQueue) { [unowned self] in
            record("suspend.\(kind)", on: scheduler.mainQueue)
            scheduler.freeze(db)
            scheduler.asyncAfter(length, on: scheduler.mainQueue) { [unowned self] in
                record("resume", on: scheduler.mainQueue)
                scheduler.thaw(db)
            }
        }
    }
}
