import SimulationRuntime
internal import SimulationRuntimeShims

/// Data races on plain state: the stored properties, globals and captured variables app code
/// reads and writes without telling the engine, checked like ``SharedState``-style named state
/// against the run's happens-before.
///
/// ```swift
/// // App code, unchanged: a flag on an object two queues touch.
/// final class Upload: @unchecked Sendable { var isDone = false }
/// DispatchQueue.global().async { upload.isDone = true }
/// DispatchQueue.main.async { if !upload.isDone { retry() } }   // reported: no-data-race
/// ```
///
/// How it is seen: Swift checks exclusive access to a class's stored properties, globals and
/// escaping closures' captured variables at run time by calling `swift_beginAccess` with the
/// variable's address. SimulationRuntimeShims defines that function: on a thread of a run that
/// checks data races (``checksPlainAccesses``), a call made by app code (a Swift function of the
/// main executable outside the engine's modules) comes here first, as a read or a write of that
/// address. Frees of Swift objects forget the locations inside them, and the real mutexes,
/// dispatch semaphores and groups app code uses (`NSLock`, `NSCondition`, `DispatchSemaphore`)
/// are edges of the happens-before, beside every queue hand-off, `sync`, timer and actor hop
/// the engine already knows.
///
/// Contract:
/// - No scheduling point and no draw: the same seed runs the same way, with the same trace, with
///   it on or off; only a race adds an event (`threads.race`), and plain accesses add none.
/// - A race names the variable by its accessor when app code went through one (a debug build:
///   `Upload.isDone`), else by the function that made the access, and each access by its function
///   when that is not the accessor; never an address, so reports are the same in every process.
/// - Unseen, so never an edge: atomics (`Synchronization.Atomic`, swift-atomics) and the
///   uncontended lock and unlock of Swift's `Mutex` (atomics in app code). State guarded only by
///   them is reported as racing; keep such state inside the `Mutex` (`Mutex<State>`), which Swift
///   does not check at run time and so is never reported.
/// - Swift tasks are checked like any job. The concurrency runtime's own happens-before marks on
///   the run's tasks are edges (a continuation resumed before its task awaits, a task's value
///   awaited after it completed, a group's children taken: ``ConcurrencyRuntimeEdges``), and a
///   task's plain access comes after its task's earlier steps and its actor's earlier turns,
///   wherever those ran. Marks on the runtime's own locks and caches are not edges (which of
///   them a run takes depends on the process's past). Where the run cannot register its tasks
///   (a runtime whose job layout ``RunJobStamps`` does not know), its task queue's jobs are not
///   checked.
/// - Not seen either: accesses Swift checks at compile time (locals, `let`s, structs on the
///   stack, and the few an optimized build proves safe), unsafe pointers, C code, and code in a
///   stripped binary or a shared library.
extension Scheduler {
    /// The modules of this package whose code is the harness's, never the app's (test targets
    /// and user modules are app code). The core (`BackgroundTaskKit`) is among them: it is
    /// checked with ThreadSanitizer on real threads instead.
    public static let engineModules = [
        "BackgroundTaskKit", "BackgroundTaskNetwork", "BackgroundTaskSimulator", "BackgroundTaskSimulatorTesting",
        "BGSimCommands", "DeterministicSimulation", "SimulationFormats", "SimulationRuntime",
        "ThreadSanitizerSupport",
    ]

    /// The toolchain's modules, whose code a binary may hold too (a generic specialized or an
    /// inlinable function emitted in it): library code, never the app's.
    public static let libraryModules = [
        "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking",
        "FoundationXML", "Dispatch", "Synchronization", "Observation", "Distributed", "RegexBuilder",
        "_StringProcessing", "_RegexParser", "_Concurrency", "SwiftOnoneSupport", "XCTest", "Testing",
        "_Testing_Foundation", "Glibc", "Musl", "CoreFoundation", "_FoundationCShims",
    ]

    /// Whether this process sees the plain accesses of app code: Linux with glibc, 64-bit, and
    /// the main executable has app code (a test binary, your own `bgsim`; not the `bgsim` built
    /// from this package, whose runs then pay nothing for it).
    public static var seesPlainAccesses: Bool { PlainAccessTable.isSupported }

    /// Whether this run checks the plain accesses of app code: race detection is on and the
    /// process sees them (``seesPlainAccesses``).
    public var checksPlainAccesses: Bool { plainAccesses?.isEnabled == true }

    /// Turns the plain-access checks on with race detection (``enableRaceDetection(checkingPlainAccesses:)``).
    func enablePlainAccesses(for detector: RaceDetector) {
        guard PlainAccessTable.isSupported else { return }
        ConcurrencyRuntimeEdges.install()
        let table = PlainAccessTable()
        table.isEnabled = true
        plainAccesses = table
        detector.plainTable = table
    }

    /// A plain access of app code, from the shim: checked against the location's history. Made
    /// by a Swift task, it comes after the task's earlier steps and, on an actor, after the
    /// actor's earlier turns (``RaceDetector/taskAccess(task:actor:release:in:)``).
    func recordPlainAccess(_ kind: SharedAccessKind, at address: UInt, site: UInt) {
        guard let races else { return }
        let (taskAddress, actorAddress) = asyncState != nil ? ConcurrencyRuntimeEdges.current() : (0, 0)
        let onTaskQueue = asyncState?.taskExecutor.map { runningQueue == $0.queue } ?? false
        let index = raceContext
        races.call { races in
            // A job of the run's task queue whose task the run could not register (a runtime
            // whose job layout ``RunJobStamps`` does not know) is not checked: without its task's
            // and its actor's order, an actor's own state would be reported as racing.
            if onTaskQueue && !races.runTasks.contains(taskAddress) { return }
            if taskAddress != 0 { races.taskAccess(task: taskAddress, actor: actorAddress, release: false, in: index) }
            races.record(kind, to: address, name: "", site: site, in: index) { kind in
                SharedAccess(
                    kind: kind, thread: races.place(runningPlace ?? "driver", in: index),
                    job: index == 0 ? nil : JobID(rawValue: races.contexts[index].job), time: clock.now)
            }
            if taskAddress != 0 { races.taskAccess(task: taskAddress, actor: actorAddress, release: true, in: index) }
        }
    }

    /// A task new to the run was scheduled for the first time (``AsyncLedger``).
    func notePlainTaskScheduled(_ task: UInt) {
        guard checksPlainAccesses, let races else { return }
        let index = raceContext
        Self.withShimQuiet { races.call { $0.taskScheduled(task, from: index) } }
    }

    /// Runs `body`, a change the engine makes to the detector itself (not from a callback of the
    /// shim), with the shim's callbacks off on this thread: a free or a lock inside it (a
    /// dictionary growing) is the engine's own, and told to the detector it would re-enter the
    /// state `body` is changing (a fatal exclusivity conflict on `plainSyncClocks`, seen when a
    /// task's first scheduling grew the dictionary under the runtime's metadata lock).
    @inline(__always)
    static func withShimQuiet<R>(_ body: () -> R) -> R {
        let was = bgsim_plain_engine_enter()
        defer { bgsim_plain_engine_leave(was) }
        return body()
    }

    /// `size` bytes at `address` were freed: the plain locations there are forgotten.
    func forgetPlainBytes(_ size: Int, at address: UInt) {
        races?.call { $0.forget(plainBytes: size, at: address) }
    }

    /// A real lock, semaphore or group at `object` was made, taken or given back, the
    /// concurrency runtime marked an edge at `object`, or a `concurrentPerform` began, started an
    /// iteration or ended (`object` a count or an index) (`how`: a `BGSIM_SYNC_` value).
    func notePlainSync(_ object: UInt, how: Int32) {
        guard let races else { return }
        let index = raceContext
        switch how {
        case Int32(BGSIM_SYNC_ACQUIRE): races.call { $0.acquirePlain(object, into: index) }
        case Int32(BGSIM_SYNC_RELEASE): races.call { $0.releasePlain(object, from: index) }
        case Int32(BGSIM_SYNC_NEW): races.call { $0.newSyncObject(object) }
        case Int32(BGSIM_SYNC_ITERATIONS_BEGIN): races.call { $0.iterationsBegin(count: Int(object), in: index) }
        case Int32(BGSIM_SYNC_ITERATION): races.call { $0.iterationStarts(Int(object), in: index) }
        case Int32(BGSIM_SYNC_ITERATIONS_END): races.call { $0.iterationsEnd(in: index) }
        default: races.call { $0.runtimeMark(object, release: how == Int32(BGSIM_SYNC_RUNTIME_RELEASE), in: index) }
        }
    }
}

/// How a race on plain state is named: from the symbols of the app code that made its accesses.
enum PlainAccessNames {
    /// The race between two plain accesses of the variable at `address`, named: by the accessor
    /// either was made in, else by the class instance's stored property there. An accessor of
    /// another property of the same class is a computed property's, which read or wrote the
    /// stored one (`var usageDescription: String { "\(bytesUsed) bytes" }`): the stored property
    /// names the race then, and the computed property's accessor is where the access was made
    /// (probes 5 and 6: such a race was named after the computed property, with no function for
    /// its access).
    static func race(first: RaceDetector.Access, second: RaceDetector.Access, at address: UInt) -> DataRace {
        let one = FunctionSymbols.symbol(containing: first.site, hiddenModules: Scheduler.engineModules)
        let other = FunctionSymbols.symbol(containing: second.site, hiddenModules: Scheduler.engineModules)
        let variable = variableName(accessors: [one?.accessedVariable, other?.accessedVariable].compactMap { $0 },
                                    stored: { StoredPropertyNames.name(at: address) })
        let location = variable ?? "a variable used in \(one?.function ?? other?.function ?? "app code")"
        func site(_ symbol: SwiftSymbolName?) -> String? {
            guard let symbol, symbol.accessedVariable == nil || symbol.accessedVariable != variable else { return nil }
            return symbol.short
        }
        return DataRace(location: location, first: first.description.made(in: site(one)),
                        second: second.description.made(in: site(other)))
    }

    /// The variable's name from the properties whose accessors made the accesses (`accessors`)
    /// and the stored property at the address (`stored`, asked only when needed): the accessor's
    /// property, unless the stored property there is another of the same type (then the
    /// accessor was a computed property's); the stored property when no accessor names one.
    static func variableName(accessors: [String], stored: () -> String?) -> String? {
        guard let accessor = accessors.first else { return stored() }
        guard let stored = stored(), stored != accessor, let dot = stored.lastIndex(of: "."),
              accessor.hasPrefix(stored[...dot]), !accessor[stored[...dot].endIndex...].contains(".")
        else { return accessor }
        return stored
    }
}
