import BackgroundTaskKit
import Dispatch
import Testing

/// The host's synchronisation seams on a device's implementation (``DispatchExecutionHost``), on
/// real threads: run them under ThreadSanitizer with `swift test --sanitize=thread --filter Concurrency`.
@Suite("Host synchronisation: Concurrency on real threads")
struct HostSynchronizationConcurrencyTests {
    private struct UploadFailed: Error, Equatable {}

    @Test("DispatchWorkQueue.sync runs the work on its queue before returning, and returns or throws what the work does")
    func dispatchSync() throws {
        let queue = DispatchQueue(label: "com.example.uploads")
        let onUploads = DispatchSpecificKey<String>()
        queue.setSpecific(key: onUploads, value: "uploads")
        let uploads: any WorkQueue = DispatchWorkQueue(queue)
        let log = Recorder<String>()
        uploads.async { log.append("queued first") }
        let label = uploads.sync { () -> String? in
            log.append("sync block")
            return DispatchQueue.getSpecific(key: onUploads)  // set only while `queue` runs the block
        }
        #expect(label == "uploads")
        #expect(log.all == ["queued first", "sync block"], "a serial queue runs sync work after what came before")
        #expect(throws: UploadFailed()) { try uploads.sync { () throws(UploadFailed) -> Int in throw UploadFailed() } }
    }

    @Test("a host lock keeps a counter exact while eight threads increment it")
    func lockKeepsCounterExact() {
        let host = DispatchExecutionHost()
        let lock = host.makeLock(name: "counter")
        let counter = host.makeShared(name: "counter", initialValue: 0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<2_000 { lock.withLock { counter.value += 1 } }
        }
        #expect(lock.withLock { counter.value } == 16_000)
    }

    @Test("a host semaphore makes one queue wait for another's work, as a DispatchGroup wait")
    func semaphoreWaitsForWork() {
        let host = DispatchExecutionHost()
        let done = host.makeSemaphore(name: "uploads done", value: 0)
        let lock = host.makeLock(name: "results")
        let results = host.makeShared(name: "results", initialValue: [Int]())
        for upload in 1...4 {
            host.backgroundQueue.async {
                lock.withLock { results.value.append(upload) }
                done.signal()
            }
        }
        for _ in 1...4 { done.wait() }
        #expect(lock.withLock { results.value.sorted() } == [1, 2, 3, 4])
    }

    @Test("a host semaphore's timed wait gives up with no unit, and takes one that is there or comes in time")
    func semaphoreTimedWait() {
        let host = DispatchExecutionHost()
        let done = host.makeSemaphore(name: "upload done", value: 0)
        #expect(!done.wait(timeout: .milliseconds(20)))
        #expect(!done.wait(timeout: .zero))
        done.signal()
        #expect(done.wait(timeout: .zero))
        host.backgroundQueue.async { done.signal() }
        #expect(done.wait(timeout: .seconds(60)))
    }

    @Test("shared state on a device is plain storage: reads what was written, in place; a scheduling point does nothing")
    func sharedStateIsPlainStorage() {
        let host = DispatchExecutionHost()
        let pending = host.makeShared(name: "pending", initialValue: ["a"])
        host.schedulingPoint()
        pending.value.append("b")
        pending.value += ["c"]
        #expect(pending.value == ["a", "b", "c"])
        #expect(pending.name == "pending")
    }
}
