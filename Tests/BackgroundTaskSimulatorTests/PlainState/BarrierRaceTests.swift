import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Testing

/// The reader-writer cache of GCD's textbook: reads in `sync` on a concurrent queue, writes in
/// `async(flags: .barrier)`. The simulator ran the barriers as GCD does, but the data-race detector
/// did not know them: two barrier writes run on the queue's thread one after the other were "not
/// ordered by any queue hand-off", and correct code was reported as `no-data-race` in 249 of 300
/// runs (found by a probe of app code). A barrier block is now ordered after every block that
/// finished before it, and every block after the barriers that finished before it.
@Suite("A concurrent queue's barriers order its blocks", .enabled(if: VirtualClocks.isSupported))
struct BarrierRaceTests {
    static func campaign(barrier: Bool) -> WorkloadCampaign {
        WorkloadCampaign(
            workload: WorkloadInfo(name: barrier ? "price-cache/barrier" : "price-cache/plain-async",
                                   summary: "a reader-writer cache on a concurrent queue", sharesState: true) {
                PriceRefresh(barrierWrites: barrier)
            },
            runs: 300, seed: Seed(0xba55_1e5))
    }

    @Test("barrier writes and sync reads hold every invariant")
    func barrierWritesHold() {
        let report = Self.campaign(barrier: true).run()
        #expect(report.passed, "\(report)")
    }

    @Test("the same cache with plain async writes is a data race between two writes")
    func plainAsyncWritesRace() throws {
        let report = Self.campaign(barrier: false).run()
        let race = try #require(report.failures.first { $0.invariant == "no-data-race" }, "\(report)")
        #expect(race.message.contains("PriceCache.set"), "\(race.message)")
    }
}

/// A price cache shared by the refresh and the screen: reads `sync` on a concurrent queue, writes
/// async on it, with the barrier flag or (the bug) without.
private final class PriceCache: @unchecked Sendable {
    // @unchecked: `prices` is guarded by the queue (its barriers, when there are some).
    private let queue = DispatchQueue(label: "com.example.prices", attributes: .concurrent)
    private var prices: [String: Int] = [:]
    private let barrierWrites: Bool

    init(barrierWrites: Bool) { self.barrierWrites = barrierWrites }

    func price(_ symbol: String) -> Int? { queue.sync { prices[symbol] } }

    func set(_ symbol: String, _ value: Int) {
        if barrierWrites {
            queue.async(flags: .barrier) { self.prices[symbol] = value }
        } else {
            queue.async { self.prices[symbol] = value }
        }
    }
}

/// On every background entry, under a background task, fetches three prices on the global queue
/// and writes each into the cache as it comes; the screen reads them on main when the app is
/// back in the foreground.
private final class PriceRefresh: Workload, @unchecked Sendable {
    // @unchecked: `observation` is touched on the main queue only.
    private let barrierWrites: Bool
    private var observation: LifecycleObservation?

    init(barrierWrites: Bool) { self.barrierWrites = barrierWrites }

    func didFinishLaunching(_ context: WorkloadContext) {
        let cache = PriceCache(barrierWrites: barrierWrites)
        let app = context.application
        observation = app.addLifecycleObserver { event in
            switch event {
            case .didEnterBackground:
                let token = BackgroundTaskToken(name: "refresh-prices", host: app)
                let group = DispatchGroup()
                for symbol in ["AAPL", "MSFT", "GOOG"] {
                    let work = context.startWork("fetch-\(symbol)")
                    DispatchQueue.global().async(group: group) {
                        cache.set(symbol, symbol.count * 100)
                        work.finish()
                    }
                }
                group.notify(queue: .main) { token.invalidate() }
            case .didBecomeActive:
                _ = cache.price("AAPL")
            default:
                break
            }
        }
    }
}
