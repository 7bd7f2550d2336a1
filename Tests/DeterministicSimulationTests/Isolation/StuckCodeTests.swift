@testable import DeterministicSimulation
import Foundation
import SimulationRuntime
import Synchronization
import Testing

/// A hang finding names the code the run was stuck in (``StuckCode``): the watchdog samples the
/// stuck thread's stack a few times and names the innermost function on every sample, app code
/// first. Before, a hang said only "an endless loop or a wait on something outside the
/// simulator in workload code", and finding the loop meant replaying the seed under a debugger.
@Suite(.timeLimit(.minutes(1)))
struct StuckCodeTests {
    /// A poller that waits for a flag by spinning on it, as app code waiting for "ready" does.
    final class ReadyPoller: @unchecked Sendable {
        // @unchecked: `thread` is written once by the polling thread before `started` is set.
        let ready = Atomic<Bool>(false)
        let started = Atomic<Bool>(false)
        var thread: StuckCode.Thread?

        @inline(never) func waitUntilReady() {
            thread = .current
            started.store(true, ordering: .releasing)
            while !ready.load(ordering: .relaxed) {}
        }
    }

    @Test("a thread spinning in a loop is named by the loop's function and its caller (Linux)")
    func namesTheLoop() throws {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
            let poller = ReadyPoller()
            let thread = Thread { poller.waitUntilReady() }  // started from a Dispatch thread: signals blocked
            thread.start()
            defer { poller.ready.store(true, ordering: .relaxed) }
            while !poller.started.load(ordering: .acquiring) { usleep(1_000) }
            let stuck = StuckCode.describe(thread: try #require(poller.thread), hiddenModules: Scheduler.engineModules)
            #expect(stuck?.hasPrefix("StuckCodeTests.ReadyPoller.waitUntilReady(), called from closure #1 in "
                                     + "StuckCodeTests.namesTheLoop()") == true, "\(stuck ?? "nil")")
        #endif
    }

    @Test("the function named is on every sample (a call the loop makes is not the loop), app code first")
    func onEverySample() {
        let loop = (name: "closure #1 in Sync.waitForReady()", isApp: true)
        let getter = (name: "Flags.isReady.getter", isApp: true)
        let engine = (name: "LifecycleHub.post(_:)", isApp: false)
        let library = (name: "Array.append(_:)", isApp: false)
        #expect(StuckCode.describe([[getter, loop, engine], [loop, engine], [getter, loop, engine]])
            == "closure #1 in Sync.waitForReady(), called from LifecycleHub.post(_:)")
        #expect(StuckCode.describe([[library, loop, engine], [library, loop, engine]])
            == "closure #1 in Sync.waitForReady(), called from LifecycleHub.post(_:)", "app code before a library's")
        #expect(StuckCode.describe([[engine], [engine]]) == "LifecycleHub.post(_:)", "no app code: the innermost named")
        #expect(StuckCode.describe([[getter], [loop]]) == nil, "nothing on every sample")
        #expect(StuckCode.describe([]) == nil)
    }
}
