import BackgroundTaskKit
import Dispatch
import Synchronization
import Testing

/// ``BackgroundSessionCompletion``: the completion handler of
/// `handleEventsForBackgroundURLSession` called once, on main, after the session's events (D1).
@Suite struct BackgroundSessionCompletionTests {
    @Test("D1: the handler is called once, on the main queue, after urlSessionDidFinishEvents; not before")
    func calledAfterEvents() {
        let host = FakeHost(applicationState: .background)
        let calls = Recorder<String>()
        let store = BackgroundSessionCompletion(mainQueue: host.mainQueue)
        store.store({ calls.append("uploads") }, forSession: "uploads")
        host.runUntilIdle()
        #expect(calls.all.isEmpty)
        #expect(store.pendingCount(forSession: "uploads") == 1)
        store.sessionDidFinishEvents("uploads")
        #expect(calls.all.isEmpty)  // asynchronously on main, never inside the call
        host.runUntilIdle()
        #expect(calls.all == ["uploads"])
        store.sessionDidFinishEvents("uploads")
        host.runUntilIdle()
        #expect(calls.all == ["uploads"])
        #expect(store.pendingCount(forSession: "uploads") == 0)
    }

    @Test("D1: events that finished before the handler was stored: the handler is called as it is stored")
    func eventsBeforeStore() {
        let host = FakeHost(applicationState: .background)
        let calls = Recorder<Int>()
        let store = BackgroundSessionCompletion(mainQueue: host.mainQueue)
        store.sessionDidFinishEvents("downloads")
        store.store({ calls.append(1) }, forSession: "downloads")
        host.runUntilIdle()
        #expect(calls.all == [1])
        // Only that one: the next wake's handler waits for its own events.
        store.store({ calls.append(2) }, forSession: "downloads")
        host.runUntilIdle()
        #expect(calls.all == [1])
        store.sessionDidFinishEvents("downloads")
        host.runUntilIdle()
        #expect(calls.all == [1, 2])
    }

    @Test("a second wake does not overwrite the first wake's handler; sessions are independent")
    func secondWakeKeepsTheFirst() {
        let host = FakeHost(applicationState: .background)
        let calls = Recorder<String>()
        let store = BackgroundSessionCompletion(mainQueue: host.mainQueue)
        store.store({ calls.append("uploads 1") }, forSession: "uploads")
        store.store({ calls.append("photos 1") }, forSession: "photos")
        store.store({ calls.append("uploads 2") }, forSession: "uploads")
        store.sessionDidFinishEvents("uploads")
        host.runUntilIdle()
        #expect(calls.all == ["uploads 1", "uploads 2"])
        store.sessionDidFinishEvents("photos")
        host.runUntilIdle()
        #expect(calls.all == ["uploads 1", "uploads 2", "photos 1"])
    }
}

/// The real-thread test of ``BackgroundSessionCompletion`` (the TSan step selects it by
/// "Concurrency"): stores and `urlSessionDidFinishEvents` race from many threads.
@Suite struct BackgroundSessionCompletionConcurrencyTests {
    @Test("stores and finished events racing on many threads call every handler exactly once, on main")
    func racingStoresAndEvents() {
        let main = DispatchQueue(label: "test.main")
        let store = BackgroundSessionCompletion(mainQueue: DispatchWorkQueue(main))
        let sessions = 16
        let rounds = 50
        let calls = Mutex<[Int]>(Array(repeating: 0, count: sessions * rounds))
        let offMain = Mutex(0)
        main.setSpecific(key: Self.mainKey, value: ())
        for round in 0..<rounds {
            // One wake per session and round: its store and its finish, on two threads, in either order.
            DispatchQueue.concurrentPerform(iterations: sessions * 2) { index in
                let session = index / 2
                let slot = round * sessions + session
                if index % 2 == 0 {
                    store.store({
                        if DispatchQueue.getSpecific(key: Self.mainKey) == nil { offMain.withCriticalSection { $0 += 1 } }
                        calls.withCriticalSection { $0[slot] += 1 }
                    }, forSession: "s\(session)")
                } else {
                    store.sessionDidFinishEvents("s\(session)")
                }
            }
            main.sync {}  // every handler this round queued has run
        }
        let counts = calls.withCriticalSection { $0 }
        #expect(counts.allSatisfy { $0 == 1 }, "handlers called \(counts.filter { $0 != 1 }.count) times wrong")
        #expect(offMain.withCriticalSection { $0 } == 0)
        for session in 0..<sessions { #expect(store.pendingCount(forSession: "s\(session)") == 0) }
    }

    static let mainKey = DispatchSpecificKey<Void>()
}
