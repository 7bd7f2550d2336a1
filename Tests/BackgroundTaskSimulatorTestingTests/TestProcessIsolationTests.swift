import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
@testable import BackgroundTaskSimulatorTesting
import Foundation
import Synchronization
import Testing

/// `campaign.isolation = try .testProcesses()`: a crash in the workload is a finding of the test
/// it ran in, and the test run goes on, with no tool of the user's own: the children re-run the
/// calling test (this test binary, filtered to it) and serve the campaign's runs. Before it a
/// crash in a test's campaign ended the whole test process (after printing the replay), and
/// isolating needed a team-built `bgsim` and a scenario file.
@Suite("Isolation in child test processes")
struct TestProcessIsolationTests {
    /// A draft uploader as apps write one: the expiration handler gives up the upload (clears
    /// the draft, ends the task); the upload's completion, still scheduled, reads the draft back
    /// with a force unwrap (`draft!`, the crash) or checks first that its task is still the one
    /// running and the draft is there (the fix; without the task check the harness found a late
    /// completion ending a later entry's task under its upload). It logs with `print` and
    /// `NSLog`, which a worker's answers must survive.
    final class DraftUploader: Workload, @unchecked Sendable {
        // @unchecked: `draft` and `task` are touched on the simulated main queue only.
        private let unwrapsForcibly: Bool
        private var draft: String?
        private var task = BackgroundTaskIdentifier.invalid
        private var observation: LifecycleObservation?

        init(unwrapsForcibly: Bool) { self.unwrapsForcibly = unwrapsForcibly }

        func didFinishLaunching(_ context: WorkloadContext) {
            let app = context.application
            observation = context.onDidEnterBackground { [self] in
                guard task == .invalid else { return }
                draft = "draft of \(context.drawWorkDuration())"
                print("uploading \(draft ?? "")")
                let work = context.startWork("upload-draft")
                task = app.beginBackgroundTask(withName: "upload-draft") { [self] in
                    NSLog("upload-draft expired; giving up")
                    draft = nil
                    work.cancel()
                    app.endBackgroundTask(task)
                    task = .invalid
                }
                let owner = task
                app.mainQueue.asyncAfter(context.drawWorkDuration()) { [self] in
                    if unwrapsForcibly {
                        print("uploaded \(draft!.count) characters")
                    } else {
                        // Expired meanwhile (and maybe a later entry began its own upload).
                        guard task == owner, let draft else { return }
                        print("uploaded \(draft.count) characters")
                    }
                    if !work.isDone { work.finish() }
                    if task != .invalid {
                        app.endBackgroundTask(task)
                        task = .invalid
                    }
                }
            }
        }
    }

    /// A sync engine that waits for a "ready" flag by spinning on it, as if another component
    /// set it; nothing does, so every run that enters the background never ends.
    final class SpinningSync: Workload, @unchecked Sendable {
        // @unchecked: `observation` is set once, on the simulated main queue.
        private let ready = Atomic<Bool>(false)
        private var observation: LifecycleObservation?

        func didFinishLaunching(_ context: WorkloadContext) {
            observation = context.onDidEnterBackground { [self] in
                while !ready.load(ordering: .acquiring) {}  // the hang: no one sets it
            }
        }
    }

    static func campaign(unwrapsForcibly: Bool) -> WorkloadCampaign {
        WorkloadCampaign(
            workload: WorkloadInfo(name: unwrapsForcibly ? "draft-uploader/unwraps" : "draft-uploader/guards",
                                   summary: "uploads the draft in the background") {
                DraftUploader(unwrapsForcibly: unwrapsForcibly)
            },
            // The crashing twin: 30 runs, most of which crash; each crash costs a new child
            // process (about 0.1 s for this test binary to start).
            runs: unwrapsForcibly ? 30 : 60, seed: Seed(0x7e57))
    }

    @Test("a crash in the workload is a no-crash finding of its test, shrunk, and the test process goes on")
    func crashIsAFinding() throws {
        var campaign = Self.campaign(unwrapsForcibly: true)
        campaign.isolation = try .testProcesses()
        let report = campaign.run()
        let crash = try #require(report.failures.first { $0.invariant == "no-crash" }, "\(report.failures)")
        // Swift's message names the force unwrap (an -Ounchecked build would trap without one:
        // then the run's last NSLog line follows the message, as its own).
        if crash.message.contains("Unexpectedly found nil while unwrapping an Optional value") {
            #expect(!crash.message.contains("upload-draft expired"), "the NSLog line is no crash message: \(crash.message)")
        } else {
            #expect(crash.message.hasSuffix("; the last line it logged: upload-draft expired; giving up"), "\(crash.message)")
        }
        #expect(crash.message.firstMatch(of: /\[\d+:[0-9a-f]+\]/) == nil, "no process or thread ids: \(crash.message)")
        #expect(crash.shrinkPhrase.hasPrefix("shrunk to ") && !crash.shrunkSizeText.contains("events"),
                "a crashed child counted no events: \(crash.shrunkSizeText)")
        let record = try #require(report.result.failures.first { $0.failure.invariant == "no-crash" })
        #expect(record.shrink != nil && record.shrinkFault == nil, "a crash found in a child is shrunk in children")
        #expect(report.result.nondeterminism.isEmpty)
    }

    @Test("a workload written with Swift concurrency (@MainActor, Task) gives in test processes the report it gives here",
          arguments: ["correct", "handler-only-cancels"])
    func swiftConcurrencyIsolated(variant: String) throws {
        let info = try #require(WorkloadCatalog.variant(workload: "main-actor-model-cancel", variant: variant)).info
        var isolated = WorkloadCampaign(workload: info, runs: 40)
        isolated.isolation = try .testProcesses()
        isolated.jobs = 2
        let inChildren = isolated.run()  // first: a child serves it here and ends before the next line
        let here = WorkloadCampaign(workload: info, runs: 40).run()
        #expect(inChildren.result.totals == here.result.totals, "\(inChildren.failures) \(here.failures)")
        #expect(inChildren.failures.map(\.invariant) == here.failures.map(\.invariant))
    }

    @Test("expectNoViolations records the crash as an issue and attaches no replayed trace (the replay would crash here)")
    func expectNoViolationsRecordsTheCrash() async throws {
        var campaign = Self.campaign(unwrapsForcibly: true)
        campaign.isolation = try .testProcesses()
        // The uploader's stale completion also ends a later task under its upload
        // (background-work-held), an issue of its own.
        let texts = Mutex<[String]>([])
        await withKnownIssue {
            await campaign.expectNoViolations(failureDatabase: .off)
        } matching: { issue in
            texts.withLock { $0 += issue.comments.map(\.rawValue) }
            return issue.comments.contains { $0.rawValue.contains(" violated in ") }
        }
        let recorded = texts.withLock { $0 }
        #expect(recorded.contains { $0.hasPrefix("no-crash violated in ") && $0.contains("under a debugger") }, "\(recorded)")
    }

    @Test("a campaign that never crashes gives in test processes the report it gives in this one")
    func sameReportIsolated() throws {
        var isolated = Self.campaign(unwrapsForcibly: false)
        isolated.isolation = try .testProcesses()
        isolated.jobs = 2
        let inChildren = isolated.run()  // first: a child serves it here and ends before the next line
        let here = Self.campaign(unwrapsForcibly: false).run()
        #expect(inChildren.passed && here.passed, "\(inChildren.failures) \(here.failures)")
        #expect(inChildren.result.totals == here.result.totals, "the same runs, events and digest")
    }

    @Test("a hang in the workload is a no-hang finding after the run timeout, and the test goes on")
    func hangIsAFinding() throws {
        var campaign = WorkloadCampaign(
            workload: WorkloadInfo(name: "spinning-sync", summary: "spins on a flag nobody sets") { SpinningSync() },
            runs: 2, seed: Seed(0x7e57))
        campaign.runTimeout = .milliseconds(500)
        campaign.isolation = try .testProcesses()
        let report = campaign.run()
        let hang = try #require(report.failures.first)
        #expect(hang.invariant == "no-hang" && report.result.totals.failed == 2, "\(report.failures)")
        #expect(hang.message.contains("made no progress"), "\(hang.message)")
        // Where: the loop's closure, on the stack in every sample the watchdog took.
        #expect(hang.message.hasSuffix("; it was in closure #1 in TestProcessIsolationTests.SpinningSync"
                                       + ".didFinishLaunching(WorkloadContext), called from closure #1 in "
                                       + "WorkloadContext.onDidEnterBackground(@Sendable () -> ())"), "\(hang.message)")
        // Nothing of a hung run is recorded (its child was stopped): its replay is its seed's, not
        // an empty choice sequence (which replayed another run, and passed).
        #expect(hang.shrinkPhrase.hasPrefix("not shrunk (a hang is not shrunk"), "\(hang.shrinkPhrase)")
        #expect(hang.shrunkReplay == hang.replay && hang.replay.hasPrefix("campaign.replay(seed: "), "\(hang.shrunkReplay)")
    }

    @Test("a test that makes another campaign in each process is told its children never reached it")
    func campaignDiffersInTheChild() throws {
        var campaign = Self.campaign(unwrapsForcibly: false)
        campaign.seed = Seed(UInt64(getpid()))  // a different campaign in the child
        campaign.runs = 5
        campaign.isolation = try .testProcesses()
        let report = campaign.run()
        let failure = try #require(report.failures.first)
        #expect(failure.invariant == "no-crash" && report.result.totals.failed == 5)
        #expect(failure.message.hasPrefix("the isolated worker could not start: it ended before serving (exit code "))
        #expect(failure.message.contains("ran the test without reaching this campaign"), "\(failure.message)")
    }

    @Test("outside a Swift Testing test it is an error that names the alternative")
    func outsideATest() async {
        let error = await Task.detached { () -> TestProcessIsolationError? in
            do {
                _ = try WorkloadCampaign.Isolation.testProcesses()
                return nil
            } catch let error as TestProcessIsolationError {
                return error
            } catch {
                return nil
            }
        }.value
        #expect(error?.description.contains("init(executable:") == true)
    }

    @Test("a test id becomes a filter that matches it alone")
    func filterMatchesOnlyTheTest() throws {
        let id = "Tests.Suite/crash(_:)/File.swift:12:5"
        let pattern = try Regex(WorkloadCampaign.Isolation.regexEscaped(id))
        #expect(id.wholeMatch(of: pattern) != nil)
        #expect("Tests.Suite/crashX_:)/File.swift:12:5".wholeMatch(of: pattern) == nil)
    }
}
