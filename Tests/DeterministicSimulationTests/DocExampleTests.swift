import DeterministicSimulation
import Testing

/// The examples from the doc comments, run as written (with the names they assume defined).
@Suite("Doc examples")
struct DocExampleTests {
    @Test("Seed: parse a campaign seed, derive a run and a subsystem, print 18 characters")
    func seedExample() throws {
        let campaign = try Seed(parsing: "0x00000000000004d2")
        let run7 = campaign.derive(index: 7)
        let scheduling = run7.derive("scheduler")
        #expect(campaign == Seed(1234))
        #expect(run7.description.count == 18 && scheduling != run7)
    }

    @Test("ChoiceSource: draws replay from the recorded token")
    func choiceExample() throws {
        let runSeed = Seed(0x2a)
        let choices = ChoiceSource(seed: runSeed.derive("workload"))
        let uploads = choices.int(in: 1...5)
        let failsFirst = choices.bool(probability: 0.3)
        let token = choices.recorded.token
        let replay = ChoiceSource(replaying: try ChoiceSequence(token: token))
        #expect(replay.int(in: 1...5) == uploads && replay.bool(probability: 0.3) == failsFirst)
    }

    @Test("Scheduler: a launch job and a retry two seconds later, then idle at the horizon")
    func schedulerExample() {
        let runSeed = Seed(0x2a)
        var log: [String] = []
        let scheduler = Scheduler(choices: ChoiceSource(seed: runSeed.derive("scheduler")))
        let uploads = scheduler.makeQueue(label: "uploads", kind: .serial)
        scheduler.async(on: scheduler.mainQueue) { log.append("launched at \(scheduler.now)") }
        scheduler.asyncAfter(.seconds(2), on: uploads) { log.append("retry at \(scheduler.now)") }
        let stop = scheduler.run(until: .seconds(60))
        #expect(stop == .idle)
        #expect(log == ["launched at 0.000000s", "retry at 2.000000s"])
        #expect(scheduler.now == .seconds(60))
    }

    @Test("repeating: a heartbeat cancels itself after ten beats")
    func heartbeatExample() {
        let scheduler = Scheduler(choices: ChoiceSource(seed: Seed(1)))
        var beats = 0
        var heartbeat = JobID(rawValue: 0)
        heartbeat = scheduler.repeating(every: .seconds(1), on: scheduler.mainQueue) {
            beats += 1
            if beats == 10 { scheduler.cancel(heartbeat) }   // fine from inside the body
        }
        #expect(scheduler.runUntilIdle() == .idle)
        #expect(beats == 10 && scheduler.now == .seconds(10))
    }

    @Test("VirtualTime and VirtualDuration print and convert as documented")
    func timeExamples() {
        let deadline = VirtualTime.seconds(30) + .milliseconds(250)
        #expect(deadline.description == "30.250000s")
        #expect(VirtualDuration(.nanoseconds(1_500)).microseconds == 2)
        let clock = VirtualClock()
        clock.advance(by: .seconds(5))
        clock.advance(to: .seconds(3))
        #expect(clock.now.description == "5.000000s")
    }

    @Test("TraceEventRepresentable: an enum event with the default hash")
    func traceExample() {
        let trace = TraceRecorder<AppEvent>(keepsEntries: true)
        trace.record(.began(task: 1), at: .zero)
        trace.record(.ended(task: 1), at: .seconds(1))
        #expect(trace.count == 2)
        #expect(trace.entries.map { "\($0.time) \($0.event.name)" }
            == ["0.000000s task.begin", "1.000000s task.end"])
        #expect(trace.digest.description.count == 16)
    }
}

private enum AppEvent: TraceEventRepresentable {
    case began(task: Int64), ended(task: Int64)
    var name: String { switch self { case .began: "task.begin"; case .ended: "task.end" } }
    var fields: [TraceField] {
        switch self {
        case .began(let task), .ended(let task): [TraceField("task", .int(task))]
        }
    }
}
