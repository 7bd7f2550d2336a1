@testable import DeterministicSimulation
import Testing

/// ``Unretained``: calls an object kept alive elsewhere, with no retain or release per call.
@Suite("Unretained call")
struct UnretainedTests {
    final class Counter {
        var calls = 0
        func tick() -> Int {
            calls += 1
            return calls
        }
    }

    @Test("a call reaches the object and returns its result")
    func callReachesObject() {
        let counter = Counter()
        let unretained = Unretained(counter)
        #expect(unretained.call { $0.tick() } == 1)
        #expect(unretained.call { $0.tick() } == 2)
        #expect(counter.calls == 2)
        #expect(unretained.isObjectAlive)
    }

    @Test("neither making one nor calling through it retains the object")
    func doesNotRetain() {
        var counter = Counter()
        let unretained = Unretained(counter)
        #expect(isKnownUniquelyReferenced(&counter))
        _ = unretained.call { $0.tick() }
        #expect(isKnownUniquelyReferenced(&counter))
    }

    #if DEBUG
    @Test("in debug builds, a call after the object is gone stops the process")
    func callAfterObjectIsGoneTraps() async {
        await #expect(processExitsWith: .failure) {
            var counter: UnretainedTests.Counter? = UnretainedTests.Counter()
            let unretained = Unretained(counter!)
            counter = nil
            _ = unretained.call { $0.tick() }
        }
    }

    @Test("in debug builds, a reference knows when its object is gone")
    func knowsWhenObjectIsGone() {
        var counter: Counter? = Counter()
        let unretained = Unretained(counter!)
        #expect(unretained.isObjectAlive)
        counter = nil
        #expect(!unretained.isObjectAlive)
    }
    #endif
}
