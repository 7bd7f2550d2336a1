import BackgroundTaskSimulator
@testable import BackgroundTaskSimulatorTesting
import DeterministicSimulation
import Foundation
import Synchronization
import Testing

@Suite struct CampaignTurnsTests {
    @Test("a second campaign waits, suspended, while the first holds its turn, then runs")
    func oneAtATime() async {
        let turns = CampaignTurns()
        let firstIn = DispatchSemaphore(value: 0)  // tidy: allow the test's own threads
        let release = DispatchSemaphore(value: 0)  // tidy: allow the test's own threads
        let first = Thread { turns.withTurnBlocking { firstIn.signal(); release.wait() } }
        first.start()
        await withCheckedContinuation { continuation in
            Thread { firstIn.wait(); continuation.resume() }.start()
        }
        let secondEntered = Atomic<Bool>(false)
        let second = Task { await turns.withTurn { secondEntered.store(true, ordering: .relaxed) } }
        while turns.waitingCount == 0 && !secondEntered.load(ordering: .relaxed) { await Task.yield() }
        let enteredEarly = secondEntered.load(ordering: .relaxed)
        #expect(!enteredEarly, "the second campaign ran while the first held the turn")
        release.signal()
        await second.value
        let entered = secondEntered.load(ordering: .relaxed)
        #expect(entered)
        #expect(turns.waitingCount == 0)
    }

    @Test("two front-door campaigns started at once give the reports each gives alone")
    func parallelCampaignsMatchSequential() async {
        let planted = ExpectNoViolationsTests.campaign("p1-overwritten-task-id")
        let correct = ExpectNoViolationsTests.campaign("correct")
        async let one = planted.run(with: .off)
        async let two = correct.run(with: .off)
        let (a, b) = await (one, two)
        #expect(a.result.totals.digest == planted.run().result.totals.digest)
        #expect(b.result.totals.digest == correct.run().result.totals.digest)
        #expect(b.passed && !a.passed)
    }
}
