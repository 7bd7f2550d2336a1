import BackgroundTaskKit
import Dispatch
import Testing

@Suite struct AtomicFlagTests {
    @Test func setsOnlyOnce() {
        let flag = AtomicFlag()
        #expect(!flag.isSet)
        #expect(flag.setIfClear())
        #expect(!flag.setIfClear())
        #expect(flag.isSet)
    }

    @Test func exactlyOneOfManyThreadsWins() {
        for _ in 0..<50 {
            let flag = AtomicFlag()
            let winners = Counter()
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                if flag.setIfClear() { winners.increment() }
            }
            #expect(winners.value == 1)
        }
    }
}

import Synchronization

final class Counter: Sendable {
    private let mutex = Mutex(0)
    func increment() { mutex.withCriticalSection { $0 += 1 } }
    var value: Int { mutex.withCriticalSection { $0 } }
}
