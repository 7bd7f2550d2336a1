import BackgroundTaskKit
import BackgroundTaskNetwork
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing

/// The examples of the library's guide (and the one README.md shows), compiled and run against
/// the fake host, and checked to appear verbatim in the guide, so the docs cannot rot.
///
/// Each example sits between `// README-BEGIN name` and `// README-END`; the test dedents it
/// and looks for it inside a ```swift block of ``ReadmeExamplesTests/markdownPath``.
@Suite("README examples")
@MainActor  // FakeHost's expiry and lifecycle verbs are, as UIKit's callouts (A3.1)
struct ReadmeExamplesTests {
    /// The Markdown file that shows every example, relative to the package root.
    static let markdownPath = "Sources/BackgroundTaskKit/BackgroundTaskKit.docc/UsingBackgroundTaskKit.md"
    /// The examples README.md shows too.
    static let readmeExamples = ["token"]

    @Test("the token example ends its task when the save completes")
    func token() {
        let app = FakeHost()
        let drafts = Drafts(app: app)
        // README-BEGIN token
        let task = BackgroundTaskToken(name: "save-draft", host: app) {
            drafts.cancelSave()  // time ran out: stop; the task then ends by itself
        }
        drafts.save { task.invalidate() }
        // README-END
        #expect(app.openTaskNames == ["save-draft"])
        app.advance(by: .seconds(1))
        #expect(app.openTasks.isEmpty && app.misuses.isEmpty)
    }

    @Test("the scoped examples end their tasks")
    func scoped() {
        let app = FakeHost()
        let log = Journal()
        let backup = Drafts(app: app)
        // README-BEGIN scoped
        let flushed = BackgroundTaskToken.run(name: "flush-log", host: app) {
            log.flush()
        }
        BackgroundTaskToken.runUntilDone(name: "backup", host: app) { done in
            guard flushed else { return done() }
            backup.save { done() }  // calling done() after an expiry is harmless
        }
        // README-END
        app.advance(by: .seconds(1))
        #expect(app.beganCount == 2 && app.openTasks.isEmpty && app.misuses.isEmpty)
    }

    @Test("the BackgroundWork example hops to the background and back")
    func work() {
        let app = FakeHost()
        let shown = Recorder<Int>()
        // README-BEGIN work
        let work = BackgroundWork(host: app)
        work.inTheBackground(name: "thumbnails") {
            let count = (1...12).map { $0 * $0 }.count  // the heavy part
            work.onTheMainThread { shown.append(count) }
        }
        // README-END
        app.runUntilIdle()
        #expect(shown.all == [12] && app.openTasks.isEmpty)
    }

    @Test("the queue example holds one task until all operations finished")
    func queue() {
        let app = FakeHost()
        let uploader = Drafts(app: app)
        let log = Journal()
        // README-BEGIN queue
        let uploads = BackgroundOperationQueue(name: "uploads", host: app) {
            uploader.cancelSave()  // time ran out
        }
        uploads.addOperation { log.flush() }
        uploads.addOperation(AsyncOperation(name: "upload") { op in
            uploader.save { op.finish() }  // the queue moves on only now
        })
        uploads.addSequentialOperations([
            SyncOperation(name: "compress") { log.flush() },
            SyncOperation(name: "clean up") { log.flush() },
        ])
        // README-END
        #expect(app.openTaskNames == ["uploads"])
        app.advance(by: .seconds(1))
        #expect(uploads.isIdle && app.openTasks.isEmpty && app.beganCount == 1)
        #expect(log.flushes == 3)
    }

    @Test("the tracker example holds a task only in the background, only while work is in flight")
    func tracker() {
        let app = FakeHost()
        let session = Drafts(app: app)
        // README-BEGIN tracker
        let downloads = InFlightWorkTracker(name: "downloads", host: app) {
            session.cancelSave()  // time ran out
        }
        let work = downloads.beginWork(name: "episode-12.mp3")
        session.save { work.finish() }
        // README-END
        #expect(app.openTasks.isEmpty)
        app.enterBackground()
        #expect(app.openTaskNames == ["downloads"])
        app.advance(by: .seconds(1))
        #expect(app.openTasks.isEmpty && app.misuses.isEmpty)
    }

    /// A quote poller for the visibility example.
    final class Quotes: Sendable {
        let polling = Mutex(false)
        func startPolling() { polling.withCriticalSection { $0 = true } }
        func stopPolling() { polling.withCriticalSection { $0 = false } }
        var isPolling: Bool { polling.withCriticalSection { $0 } }
    }

    @Test("the visibility example polls while the view is visible and stops when the app goes home")
    func visibility() {
        let app = FakeHost()
        let quotes = Quotes()
        // README-BEGIN visibility
        let visibility = ViewVisibility(host: app) { visible in
            visible ? quotes.startPolling() : quotes.stopPolling()
        }
        visibility.viewDidAppear()  // from the view controller's viewDidAppear(_:)
        // README-END
        #expect(quotes.isPolling)
        app.enterBackground()  // no viewWillDisappear: the helper still stops the polling
        #expect(!quotes.isPolling)
        app.enterForeground()
        #expect(quotes.isPolling)
    }

    @Test("the background-session example calls the wake's completion handler once, on main, after the events")
    func backgroundSession() {
        let app = FakeHost(applicationState: .background)
        let snapshots = Recorder<String>()
        // README-BEGIN background-session
        let completions = BackgroundSessionCompletion(mainQueue: app.mainQueue)
        // application(_:handleEventsForBackgroundURLSession:completionHandler:):
        completions.store({ snapshots.append("uploads") }, forSession: "com.example.uploads")
        // the session's delegate, urlSessionDidFinishEvents(forBackgroundURLSession:):
        completions.sessionDidFinishEvents("com.example.uploads")
        // README-END
        #expect(snapshots.all.isEmpty)  // on the main queue, not inside the call
        app.runUntilIdle()
        #expect(snapshots.all == ["uploads"])
    }

    @Test("the scheduler example registers in time, resubmits, and completes the task once")
    func scheduler() throws {
        let app = FakeHost(hasFinishedLaunching: false)
        let bgScheduler = FakeTaskScheduler(host: app)
        let feed = Drafts(app: app)
        let problems = Recorder<String>()
        // README-BEGIN scheduler
        // In application(_:didFinishLaunchingWithOptions:), before it returns:
        let scheduler = BackgroundTaskScheduler(scheduler: bgScheduler, lifecycle: app)
        do {
            try scheduler.registerRepeatingRefresh("com.example.refresh", every: .seconds(15 * 60)) { task in
                task.onExpiration { feed.cancelSave() }
                feed.save { task.complete(success: true) }
            }
        } catch {
            problems.append("\(error)")  // for example: registered after launch finished
        }
        // When the app goes to the background:
        do {
            try scheduler.submitRepeatingRefresh("com.example.refresh")
        } catch .scheduler(.unavailable) {
            problems.append("Background App Refresh is off")
        } catch {
            problems.append("\(error)")
        }
        // README-END
        app.finishLaunching()
        let task = try #require(bgScheduler.launch("com.example.refresh"))
        app.advance(by: .seconds(1))
        #expect(task.completions == [true])
        #expect(bgScheduler.pendingRequests.count == 1)
        #expect(problems.all.isEmpty && bgScheduler.crashes.isEmpty)
    }

    @Test("the async launch handler example completes the task once, as a success")
    func asyncScheduler() async throws {
        let app = FakeHost(hasFinishedLaunching: false)
        let bgScheduler = FakeTaskScheduler(host: app)
        let feed = AsyncFeed()
        // README-BEGIN async-scheduler
        let scheduler = BackgroundTaskScheduler(scheduler: bgScheduler, lifecycle: app)
        try scheduler.registerAsync("com.example.cleanup") { task in
            // Runs in a new Task; expiry cancels it and completes the BGTask as failed.
            let removed = try await feed.removeExpiredItems()
            task.updateProgress(completedUnitCount: Int64(removed), totalUnitCount: Int64(removed))
        }   // returning completes the BGTask as a success; throwing, as a failure
        // README-END
        app.finishLaunching()
        let task = try #require(bgScheduler.launch("com.example.cleanup"))
        #expect(await eventually { !task.completions.isEmpty })
        #expect(task.completions == [true])
    }

    @Test("the async scoped-run example ends its task when the body returns")
    func asyncScoped() async throws {
        let app = FakeHost()
        let feed = AsyncFeed()
        // README-BEGIN async-scoped
        let removed = try await BackgroundTaskToken.run(name: "cleanup", host: app) {
            try await feed.removeExpiredItems()
        }   // the task ends here, or at expiry if that comes first
        // README-END
        #expect(removed == 3)
        #expect(app.openTasks.isEmpty && app.beganCount == 1)
    }

    @Test("the async task example ends its task when the Swift task's work returns")
    func asyncTask() async throws {
        let app = FakeHost()
        let feed = AsyncFeed()
        // README-BEGIN async-task
        let cleanup = BackgroundTaskToken.task(name: "cleanup", host: app) {
            try await feed.removeExpiredItems()  // cancelled if time runs out first
        }   // the task ends when the work returns or throws, or at expiry, after the cancel
        // README-END
        #expect(try await cleanup.value == 3)
        #expect(app.openTasks.isEmpty && app.beganCount == 1 && app.endedCount == 1)
    }

    @Test("the network example keeps a lost upload for a retry and hears the network come back")
    func network() {
        let app = FakeHost()
        let session = StandInSession(app: app, failingWith: URLError(.networkConnectionLost))
        let monitor = StandInPathMonitor()
        let outbox = Recorder<String>()
        let request = URLRequest(url: URL(string: "https://mail.example.com/outbox")!)
        // README-BEGIN network
        BackgroundTaskToken.runUntilDone(name: "send-outbox", host: app) { done in
            let upload = session.uploadTask(with: request, from: Data("hello".utf8)) { _, _, error in
                // A lost connection is not a success: the server may never have seen it (QA1941).
                app.mainQueue.async { outbox.append(error == nil ? "sent" : "kept for retry"); done() }
            }
            upload.resume()
        }
        monitor.pathUpdateHandler = { path in
            if path.status == .satisfied { outbox.append("online: retry") }
        }
        monitor.start(queue: app.mainQueue)
        // README-END
        app.runUntilIdle()
        #expect(outbox.all == ["online: retry", "kept for retry"])  // the path came first: one hop less
        #expect(app.openTasks.isEmpty && app.misuses.isEmpty)
    }

    @Test("the shared-state example completes once, whichever queue gets there first")
    func sharedState() {
        let app = FakeHost()
        let outbox = Recorder<String>()
        // README-BEGIN shared-state
        let lock = app.makeLock(name: "upload")
        let didComplete = app.makeShared(name: "didComplete", initialValue: false)
        let complete: @Sendable (String) -> Void = { who in
            let first = lock.withLock {  // check and set in one critical section
                defer { didComplete.value = true }
                return !didComplete.value
            }
            if first { outbox.append("completed by \(who)") }
        }
        app.backgroundQueue.async { complete("the upload") }
        app.mainQueue.async { complete("the expiration handler") }
        // README-END
        app.runUntilIdle()
        #expect(outbox.all == ["completed by the upload"])
        #expect(app.backgroundQueue.sync { didComplete.value })
    }

    @Test("the fake-host example is a passing test")
    func fakeHost() {
        // README-BEGIN fake-host
        let app = FakeHost()
        let uploads = BackgroundOperationQueue(name: "uploads", host: app)
        uploads.addOperation { /* upload */ }
        app.enterBackground()
        app.runUntilIdle()                 // runs the queued work, on this thread
        #expect(app.openTasks.isEmpty)     // the queue ended its task
        #expect(app.misuses.isEmpty)       // no double or unknown end
        #expect(app.expire().isEmpty)      // nothing left for the expiry callout
        // README-END
    }

    // MARK: The docs contain the examples

    @Test("every example appears verbatim in a swift block of the Markdown file")
    func markdownContainsExamples() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let markdown = try String(contentsOf: root.appendingPathComponent(Self.markdownPath), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let examples = Self.examples(in: source)
        #expect(examples.count == 14)
        let blocks = Self.swiftBlocks(in: markdown)
        for (name, code) in examples {
            #expect(blocks.contains { $0.contains(code) },
                    "example '\(name)' is not verbatim in \(Self.markdownPath); copy it from \(#filePath)")
        }
        let readme = Self.swiftBlocks(in: try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8))
        for (name, code) in examples where Self.readmeExamples.contains(name) {
            #expect(readme.contains { $0.contains(code) },
                    "example '\(name)' is not verbatim in README.md; copy it from \(#filePath)")
        }
    }

    /// The marked examples of `source`, dedented.
    static func examples(in source: String) -> [(name: String, code: String)] {
        var result: [(String, String)] = []
        var name: String?
        var lines: [Substring] = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("// README-BEGIN ") {
                name = String(trimmed.dropFirst("// README-BEGIN ".count))
                lines = []
            } else if trimmed == "// README-END", let current = name {
                let indent = lines.filter { !$0.allSatisfy(\.isWhitespace) }
                    .map { $0.prefix { $0 == " " }.count }.min() ?? 0
                result.append((current, lines.map { String($0.dropFirst(indent)) }.joined(separator: "\n")))
                name = nil
            } else if name != nil {
                lines.append(line)
            }
        }
        return result
    }

    /// The contents of the ```swift blocks of `markdown`.
    static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }
}

/// A stand-in for app code whose work completes a second later on the main queue.
final class Drafts: Sendable {
    private let app: FakeHost
    private let cancelled = AtomicFlag()
    init(app: FakeHost) { self.app = app }
    func save(_ completion: @escaping @Sendable () -> Void) {
        app.mainQueue.asyncAfter(.seconds(1), completion)
    }
    func cancelSave() { _ = cancelled.setIfClear() }
}

/// A stand-in for a log that can be flushed.
final class Journal: Sendable {
    private let count = Counter()
    @discardableResult
    func flush() -> Bool {
        count.increment()
        return true
    }
    var flushes: Int { count.value }
}

/// A stand-in for app code with an async API.
final class AsyncFeed: Sendable {
    func removeExpiredItems() async throws -> Int {
        await Task.yield()
        return 3
    }
}
