import BackgroundTaskKit
import BackgroundTaskSimulator
import DeterministicSimulation
import Dispatch
import Foundation
import Testing

/// A race on plain state is found the same way in any process: the same seed gives the same trace
/// and report in the first run of a process and in later ones, whatever the process did before.
/// Two things a process's history changes are not edges of a run's happens-before: the Swift
/// runtime's own locks (its conformance and metadata caches, locked only on a miss), and what an
/// earlier lock released at the address a new lock now has (a library's object freed unseen and
/// its memory given to the next one).
@Suite(.enabled(if: Scheduler.seesPlainAccesses && VirtualClocks.isSupported))
struct PlainStateProcessHistoryTests {
    static func run(_ way: DraftExport.Way, seed: UInt64) -> RunOutcome {
        RealDispatchTests.run("draft-export", seed: seed) { DraftExport(way: way) }
    }

    /// Each seed's digest and races over `rounds` runs, which must all be the same.
    static func rounds(_ way: DraftExport.Way, _ rounds: Int) -> [UInt64: [String]] {
        var seen: [UInt64: [String]] = [:]
        for _ in 1...rounds {
            for seed in 1...3 as ClosedRange<UInt64> {
                let outcome = Self.run(way, seed: seed)
                seen[seed, default: []].append("\(outcome.digest): \(PlainStateRaceTests.races(outcome).joined(separator: " | "))")
            }
        }
        return seen
    }

    @Test("a cast the process makes for the first time (the runtime's conformance cache filled under its lock) orders nothing: the first run finds what later runs find")
    func runtimeCacheLocksOrderNothing() {
        // The first round is this process's first use of these casts: only this test makes them.
        for (seed, runs) in Self.rounds(.castsForSharing, 2).sorted(by: { $0.key < $1.key }) {
            #expect(Set(runs).count == 1, "seed \(seed): \(runs)")
            #expect(runs[0].contains("a write in closure") && runs[0].contains("a read in closure"),
                    "seed \(seed): the job's write and main's read race: \(runs[0])")
        }
    }

    @Test("each export's JSONEncoder locks its own options: a new encoder's lock, often at the address of the last one's, inherits nothing")
    func newLocksStartAfresh() {
        for (seed, runs) in Self.rounds(.encodesJSON, 5).sorted(by: { $0.key < $1.key }) {
            #expect(Set(runs).count == 1, "seed \(seed): \(runs)")
        }
    }

    @Test("a mutex made again in the same memory is a new lock: the old one's unlock does not order the new one's holders")
    func remadeMutexIsNew() throws {
        for seed in 1...4 as ClosedRange<UInt64> {
            let outcome = Self.run(.remakesMutex, seed: seed)
            let race = try #require(PlainStateRaceTests.races(outcome).first, "seed \(seed): \(outcome.violations)")
            #expect(race.contains("DraftExport"), "\(race)")
            #expect(PlainStateRaceTests.others(outcome).isEmpty, "\(PlainStateRaceTests.others(outcome))")
        }
    }
}

/// Items a share sheet can take, found by a cast, as apps find them.
protocol DraftShareable { var shareTitle: String { get } }
struct DraftTextItem: DraftShareable { var shareTitle: String { "text" } }
struct DraftImageItem: DraftShareable { var shareTitle: String { "image" } }

struct DraftPayload: Codable { var title = "Draft"; var words = 120 }
struct DraftStatus: Codable { var saved: Int }

/// A drafts app that counts the drafts it exported in a plain property, written on a global
/// queue and read on main with nothing ordering them (a real race), while each side does
/// something that takes a lock inside a library.
final class DraftExport: Workload, @unchecked Sendable {
    enum Way: Sendable {
        /// Each side prepares a share item with a cast (`as? any DraftShareable`).
        case castsForSharing
        /// Each side encodes with a `JSONEncoder` of its own.
        case encodesJSON
        /// The export serializes through a mutex it makes, and main makes its own in the same
        /// memory (a pool of lock storage, reused).
        case remakesMutex
    }

    let way: Way
    var exported = 0
    private var observation: LifecycleObservation?
    private let lockStorage = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init(way: Way) { self.way = way }

    deinit { lockStorage.deallocate() }

    func didFinishLaunching(_ context: WorkloadContext) {
        observation = context.onDidEnterBackground { [self] in
            DispatchQueue.global().async { [self] in
                exported += 1
                switch way {
                case .castsForSharing:
                    let item: Any = DraftTextItem()
                    if let shareable = item as? any DraftShareable { _ = shareable.shareTitle }
                case .encodesJSON:
                    _ = try? JSONEncoder().encode(DraftPayload())
                case .remakesMutex:
                    pthread_mutex_init(lockStorage, nil)
                    pthread_mutex_lock(lockStorage)
                    pthread_mutex_unlock(lockStorage)
                    pthread_mutex_destroy(lockStorage)
                }
            }
            DispatchQueue.main.asyncAfter(deadline: .now() + 1) { [self] in
                switch way {
                case .castsForSharing:
                    let item: Any = DraftImageItem()
                    if let shareable = item as? any DraftShareable { _ = shareable.shareTitle }
                case .encodesJSON:
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = .sortedKeys
                    _ = try? encoder.encode(DraftStatus(saved: 0))
                case .remakesMutex:
                    pthread_mutex_init(lockStorage, nil)
                    pthread_mutex_lock(lockStorage)
                    pthread_mutex_unlock(lockStorage)
                    pthread_mutex_destroy(lockStorage)
                }
                if exported > 3 { exported = 0 }
            }
        }
    }
}
