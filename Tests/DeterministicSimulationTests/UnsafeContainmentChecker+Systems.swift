/// The systems idioms of the containment check (issue 34, item 4): the systems room
/// SimulationRuntime (fibers, CPU placement, child processes, fatal signals), the engine's
/// runtime code still tied to its types (executor hooks, the thread pool, crash slots) and the few
/// hot tables that use raw memory. Each file that may use one is listed with its reason; the
/// core an app links, the checkers, the workloads and the command line use none.
extension UnsafeContainmentChecker {
    static let systemsIdioms: [Idiom] = [
        Idiom(
            name: "`unsafeBitCast`", pattern: #"\bunsafeBitCast\b"#,
            allowed: [
                // A hook variable found by name: its value becomes a typed C function, and a
                // hook the raw pointer stored in it.
                "Sources/SimulationRuntime/HookVariable.swift": 2,
                // A job pointer from the runtime's hook becomes an `UnownedJob`.
                "Sources/DeterministicSimulation/Async/GlobalExecutorHooks.swift": 1,
                // A job's header, to read the task's executor-private words.
                "Sources/DeterministicSimulation/Async/RunJobStamps.swift": 1,
                // A class instance's metadata pointer becomes its type, for its fields' names.
                "Sources/SimulationRuntime/StoredPropertyNames.swift": 1,
                // A main-actor closure called on the simulated main thread, which the engine has
                // just checked is the run's main actor (the isolation the type system cannot see).
                "Sources/DeterministicSimulation/Async/Scheduler+MainThread.swift": 1,
                "Sources/DeterministicSimulation/Async/SimulatedMainActor.swift": 1,
                // `prctl` and `sched_setaffinity`, found by name (absent on Darwin), called typed.
                "Sources/SimulationRuntime/ParentLifeline.swift": 1,
                "Sources/SimulationRuntime/CPUPlacement.swift": 1,
                // ThreadSanitizer's `__tsan_acquire` and `__tsan_release`, present only under TSan.
                "Sources/ThreadSanitizerSupport/Mutex+ThreadSanitizer.swift": 2,
            ],
            instead: "call the function or cast with `as?`; a C symbol belongs in the engine's runtime files"),
        Idiom(
            name: "`dlsym`", pattern: #"\bdlsym\b"#,
            allowed: [
                // The runtime's hook variables (RTLD_DEFAULT on Darwin and Linux).
                "Sources/SimulationRuntime/HookVariable.swift": 2,
                "Sources/SimulationRuntime/ParentLifeline.swift": 1,
                "Sources/SimulationRuntime/CPUPlacement.swift": 1,
                "Sources/ThreadSanitizerSupport/Mutex+ThreadSanitizer.swift": 2,
            ],
            instead: "import the module that declares the function"),
        Idiom(
            name: "`sigaction`", pattern: #"\bsigaction\b"#,
            allowed: [
                // The one place that installs handlers (the engine's CrashSignals says what they write).
                "Sources/SimulationRuntime/FatalSignals.swift": 2,
            ],
            instead: "use CrashSignals (DeterministicSimulation/Crash/CrashSignals.swift) over FatalSignals"),
        Idiom(
            name: "`nonisolated(unsafe)`", pattern: #"\bnonisolated\(\s*unsafe\s*\)"#,
            allowed: [
                // Set once by the load-time install, before any task runs; read-only after.
                "Sources/DeterministicSimulation/Async/ProcessExecutors.swift": 2,
                // What a signal handler reads: set before the handlers are installed, and a
                // handler may read only plain memory (no lock is async-signal-safe).
                "Sources/DeterministicSimulation/Crash/CrashSignals.swift": 2,
                "Sources/DeterministicSimulation/Crash/RunWatchdog.swift": 1,
            ],
            instead: "use a `Mutex`, an `Atomic`, or a `let`"),
        Idiom(
            name: "a raw pointer (`Unsafe…Pointer`, `withUnsafe…`)",
            pattern: #"\bUnsafe(Mutable)?(Raw)?(Buffer)?Pointer\b|\bwithUnsafe(Mutable)?(Bytes|BufferPointer|Pointer)\b"#,
            allowed: [
                // The runtime room: executor hooks and job words, the run mark in a pthread key,
                // fiber stacks and their C entry, the pool's fiber slot, crash dumps written from
                // a signal handler, CPU sets, and the isolation transport's reads and writes.
                "Sources/DeterministicSimulation/Async/GlobalExecutorHooks.swift": 1,
                "Sources/SimulationRuntime/HookVariable.swift": 5,
                "Sources/DeterministicSimulation/Async/RunJobStamps.swift": 2,
                "Sources/SimulationRuntime/ThreadMark.swift": 2,
                // The table of real mutexes a run's simulated threads hold, shared with the
                // shim's pthread_mutex functions (a C struct the engine allocates).
                "Sources/SimulationRuntime/PlainLockTable.swift": 4,
                // The run mark the shim hands an app lock point (an opaque pointer).
                "Sources/SimulationRuntime/AppLockPoints.swift": 1,
                // The run's plain-access table the shim reads (a C struct the engine allocates),
                // a return address named from the symbol table, and the runtime's demangler.
                "Sources/SimulationRuntime/PlainAccessTable.swift": 8,
                // The task and actor a thread runs, read by the shim for a task's plain access.
                "Sources/SimulationRuntime/ConcurrencyRuntimeEdges.swift": 2,
                // A racing variable's address, walked down to the class instance it is in.
                "Sources/SimulationRuntime/StoredPropertyNames.swift": 3,
                // A real Dispatch call the shim hands over (a C struct on the caller's stack),
                // kept to run on a simulated queue, and a group's address asked about.
                "Sources/SimulationRuntime/RealDispatchCall.swift": 3,
                "Sources/SimulationRuntime/Fiber.swift": 13,
                "Sources/SimulationRuntime/Carrier.swift": 4,
                "Sources/SimulationRuntime/CPUPlacement.swift": 3,
                "Sources/DeterministicSimulation/Crash/CrashOutput.swift": 3,
                "Sources/SimulationRuntime/FatalSignals.swift": 4,
                "Sources/DeterministicSimulation/Crash/CrashSignals.swift": 1,
                "Sources/SimulationRuntime/SignalSafeText.swift": 2,
                "Sources/SimulationRuntime/ChildProcess.swift": 5,
                "Sources/SimulationRuntime/DescriptorLines.swift": 1,
                "Sources/SimulationFormats/AtomicFile.swift": 2,
                "Sources/ThreadSanitizerSupport/Mutex+ThreadSanitizer.swift": 3,
                // Hot tables without an array's bounds and uniqueness checks: weighted draws (every
                // environment step), the crash dump's view of the recording, the trace digest's
                // bytes, the environment's candidate actions and the coverage counters.
                "Sources/DeterministicSimulation/Choices/ChoiceSource+Values.swift": 6,
                "Sources/DeterministicSimulation/Choices/ChoiceSource.swift": 6,
                "Sources/DeterministicSimulation/Trace/StableHasher.swift": 3,
                "Sources/BackgroundTaskSimulator/Environment/EnvironmentDriver.swift": 3,
                "Sources/BackgroundTaskSimulator/Environment/EnvironmentDriver+Actions.swift": 1,
                "Sources/BackgroundTaskSimulator/Run/CoverageCounter.swift": 8,
            ],
            instead: "use an array or a value type; raw memory belongs in the engine's runtime files"),
    ]
}
