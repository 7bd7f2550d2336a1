import Foundation

/// The containment check for unsafe performance code (STYLE.md habit 11): each unsafe idiom may
/// appear only in the files listed for it, at most as often as listed, so checkers, workloads
/// and the rest of the domain code stay plain Swift that users can copy.
///
/// ```swift
/// let found = try UnsafeContainmentChecker.check(source: text, file: "Sources/X/Y.swift")
/// ```
///
/// Unlike the tidy rules there is no per-line escape: a new use means a new entry in
/// ``idioms``, reviewed with its reason in the file that holds it. Comments are ignored.
enum UnsafeContainmentChecker {
    /// One unsafe idiom and where it is allowed.
    struct Idiom: Sendable {
        let name: String
        let pattern: String
        /// File path (from the package root) to the most uses that file may have.
        let allowed: [String: Int]
        /// What to do instead.
        let instead: String
    }

    /// Uses of one idiom in one file beyond what it is allowed.
    struct Violation: CustomStringConvertible, Equatable {
        let file: String
        let lines: [Int]
        let idiom: String
        let allowedCount: Int
        let instead: String

        var description: String {
            let place = lines.map { "\(file):\($0)" }.joined(separator: ", ")
            let limit = allowedCount == 0 ? "is not allowed in this file" : "is allowed at most \(allowedCount)x here"
            return "\(place): \(idiom) \(limit) (unsafe code is contained, STYLE.md habit 11); \(instead)"
        }
    }

    /// Every idiom checked: the performance idioms here, then the systems idioms (raw pointers,
    /// bit casts, symbol lookups, signal handlers, unchecked globals) in
    /// `UnsafeContainmentChecker+Systems.swift`.
    static let idioms: [Idiom] = performanceIdioms + systemsIdioms

    static let performanceIdioms: [Idiom] = [
        Idiom(
            name: "`@exclusivity(unchecked)`", pattern: #"@exclusivity\(\s*unchecked\s*\)"#,
            allowed: [
                // The engine: one state per class (the scheduler keeps its hook, its spare buffer,
                // the scheduling point's countdown, the whole fast path of a point, and its thread
                // controller's unretained call, read by every slow point, sleep and lock; its
                // race detector, read by every enqueue and job to see that detection is off; and
                // whether the code running is a dead process's, read by every event, with the
                // dead queues). A choice source's state, and its inert flag read by every draw.
                "Sources/DeterministicSimulation/Scheduling/Scheduler.swift": 8,
                "Sources/DeterministicSimulation/Choices/ChoiceSource.swift": 2,
                "Sources/DeterministicSimulation/Trace/TraceRecorder.swift": 1,
                "Sources/DeterministicSimulation/Time/VirtualClock.swift": 1,
                // The thread controller's run state: every decision of a threaded run reads it.
                "Sources/DeterministicSimulation/Scheduling/Threads/ThreadController.swift": 1,
                // A simulated lock's holder and waiters (a lock around every statement of some
                // workloads), and the thread pool's idle workers (taken at every handoff).
                "Sources/DeterministicSimulation/Scheduling/Threads/SimulatedLock.swift": 1,
                "Sources/DeterministicSimulation/Scheduling/Threads/SimulatedThreadPool.swift": 1,
                // The async ledger's table: every task job and every sleep of a run updates it.
                "Sources/DeterministicSimulation/Async/AsyncLedger.swift": 1,
                // The race detector's tables (contexts, pending clocks, queue ends and components,
                // free components, locations, races, reported keys), touched at every enqueue,
                // job start and end and shared access of every run: their dynamic checks were a
                // third of what detection cost (issue 36). Eight, not one state struct: an
                // access checks a location in place (`&locations[id]`) while it reads the
                // contexts and appends to the races; in one struct those would be overlapping
                // accesses to it, a real exclusivity violation that `unchecked` would only hide.
                // Separate properties never overlap.
                "Sources/DeterministicSimulation/Races/RaceDetector.swift": 8,
                // The simulator's hot classes: one state struct or one hot list each.
                "Sources/BackgroundTaskSimulator/App/SimulatedApplication.swift": 1,
                "Sources/BackgroundTaskSimulator/App/SimulatedDevice.swift": 1,
                "Sources/BackgroundTaskSimulator/App/LifecycleObserverList.swift": 1,
                "Sources/BackgroundTaskSimulator/TaskScheduler/TaskSchedulerService.swift": 1,
            ],
            instead: "keep the state checked, or move it into the class's one unchecked state struct"),
        Idiom(
            name: "`unowned(unsafe)`", pattern: #"\bunowned\(\s*unsafe\s*\)"#,
            allowed: [
                "Sources/BackgroundTaskSimulator/App/DeviceReference.swift": 1,
                // The thread controller's owner, read at every decision (the scheduler owns it).
                "Sources/DeterministicSimulation/Scheduling/Threads/ThreadController.swift": 1,
            ],
            instead: "use DeviceReference for the device, or a strong, weak or unowned reference"),
        Idiom(
            name: "`Unmanaged`", pattern: #"\bUnmanaged\b"#,
            allowed: [
                "Sources/DeterministicSimulation/Support/Unretained.swift": 2,
                // A fiber's carrier, passed unretained through the C entry of its stack (its
                // owner keeps it alive).
                "Sources/SimulationRuntime/Carrier.swift": 2,
                // An object per thread, kept in a pthread key (an opaque pointer) and released by
                // the key's destructor when the thread exits (each campaign worker's pool).
                "Sources/SimulationRuntime/PerThreadObject.swift": 4,
                // The run an OS thread is executing, kept unretained in a pthread key (read by
                // the runtime's executor hooks and the simulated main actor, only while that
                // run executes on the thread; and by the shim's callbacks, which are handed
                // that same mark; and told to the shim when the run ends).
                "Sources/SimulationRuntime/ThreadMark.swift": 6,
            ],
            instead: "use Unretained (DeterministicSimulation/Support/Unretained.swift), or a strong reference"),
        Idiom(
            name: "an underscored standard library API (`._name`, `@_attribute`, `_modify`/`_read`)",
            pattern: #"\._[A-Za-z]\w*|@_[A-Za-z]\w*|\b_(modify|read)\b"#,
            allowed: [
                "Sources/DeterministicSimulation/Support/Unretained.swift": 1,
                // Swift's executor factory (SPI `ExperimentalCustomExecutors` and
                // `ExperimentalScheduling`, one import) and the C entry of its load-time install.
                "Sources/DeterministicSimulation/Async/ProcessExecutors.swift": 3,
                // The calibration of app lock points, kept unoptimized (`@_optimize(none)`) so
                // its locks go through `NSLocking` as generic app code's do.
                "Sources/SimulationRuntime/AppLockPoints.swift": 1,
                // A job's executor-private words (SPI `ExperimentalCustomExecutors`).
                "Sources/DeterministicSimulation/Async/RunJobStamps.swift": 1,
                // The runtime's demangler, `swift_demangle` (exported, in no header).
                "Sources/SimulationRuntime/PlainAccessTable.swift": 1,
                // A class's stored properties and their offsets (SPI `Reflection`'s
                // `_forEachField`), to name the property a race report is about.
                "Sources/SimulationRuntime/StoredPropertyNames.swift": 1,
            ],
            instead: "use public API; underscored API is unsupported and may change"),
    ]

    /// Checks one file's text; `file` is its path from the package root.
    static func check(source: String, file: String) throws -> [Violation] {
        let uses = try uses(in: source)
        return idioms.indices.compactMap { index in
            let idiom = idioms[index]
            let allowedCount = idiom.allowed[file] ?? 0
            guard uses[index].count > allowedCount else { return nil }
            return Violation(file: file, lines: uses[index], idiom: idiom.name, allowedCount: allowedCount,
                             instead: idiom.instead)
        }
    }

    /// For each of ``idioms``, in order, the line number of each use in `source` (comments
    /// ignored; a line with two uses is listed twice).
    static func uses(in source: String) throws -> [[Int]] {
        var uses = Array(repeating: [Int](), count: idioms.count)
        let regexes = try idioms.map { try Regex($0.pattern).wordBoundaryKind(.simple) }
        var inBlockComment = false
        for (offset, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = TidyChecker.stripComments(String(line), inBlockComment: &inBlockComment)
            for (index, regex) in regexes.enumerated() {
                uses[index] += Array(repeating: offset + 1, count: code.matches(of: regex).count)
            }
        }
        return uses
    }
}
