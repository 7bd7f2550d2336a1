internal import SimulationRuntimeShims

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a thread that makes no progress is stuck, in words: the innermost function on its stack
/// in every one of a few samples taken a moment apart (the shim's `bgsim_sample_thread`), app
/// code first, with the function that called it. For the hang watchdog: "the run made no
/// progress" says nothing of where; this names the loop.
///
/// ```swift
/// let worker = StuckCode.Thread.current                       // on the thread that runs the runs
/// StuckCode.describe(thread: worker, hiddenModules: Scheduler.engineModules)   // from the watchdog
/// // "closure #1 in SpinningSync.didFinishLaunching(WorkloadContext), called from LifecycleHub.post(_:)"
/// ```
///
/// Contract: names, never addresses, so the same loop gives the same words in every process; a
/// function is named only when it is on the stack in every sample (a function the loop calls,
/// caught in some samples only, is not the loop). nil where nothing can be named: off Linux, a
/// thread that did not answer, a binary without a symbol table or without app code (`bgsim`
/// itself keeps no symbols), or a thread carried by another OS thread than `thread`.
package enum StuckCode {
    /// A thread of this process, to sample.
    package struct Thread: @unchecked Sendable {
        // @unchecked: a pthread handle (a pointer on Darwin), only ever passed to `pthread_kill`.
        fileprivate let handle: pthread_t

        /// The calling thread, which may be sampled from now on (the sampling signal is unblocked
        /// on it: Dispatch's threads, and threads they start, block every signal).
        package static var current: Thread {
            bgsim_sample_thread_prepare()
            return Thread(handle: pthread_self())
        }
    }

    /// The description of `thread`'s stuck code from `samples` samples `intervalMilliseconds` apart.
    package static func describe(thread: Thread, samples: Int = 3, intervalMilliseconds: Int = 20,
                                 hiddenModules: [String] = []) -> String? {
        var stacks: [[(name: String, isApp: Bool)]] = []
        for index in 0..<samples {
            if index > 0 { usleep(UInt32(intervalMilliseconds * 1_000)) }  // tidy: allow the watchdog's thread
            var frames = [UInt](repeating: 0, count: 64)
            let count = Int(bgsim_sample_thread(thread.handle, &frames, Int32(frames.count)))
            let named = frames.prefix(count).compactMap { pc -> (name: String, isApp: Bool)? in
                guard let symbol = FunctionSymbols.symbol(containing: pc, hiddenModules: hiddenModules) else { return nil }
                return (symbol.short, bgsim_is_app_function(pc) != 0)
            }
            guard !named.isEmpty else { return nil }
            stacks.append(named)
        }
        return describe(stacks)
    }

    /// The words for `stacks` (each innermost frame first): the innermost app frame on every
    /// stack, else the innermost named one, and the next function below it on the first stack.
    package static func describe(_ stacks: [[(name: String, isApp: Bool)]]) -> String? {
        guard let first = stacks.first else { return nil }
        let onEvery = { (name: String) in stacks.allSatisfy { stack in stack.contains { $0.name == name } } }
        guard let at = first.firstIndex(where: { $0.isApp && onEvery($0.name) })
            ?? first.firstIndex(where: { onEvery($0.name) }) else { return nil }
        let name = first[at].name
        guard let caller = first[(at + 1)...].first(where: { $0.name != name }) else { return name }
        return "\(name), called from \(caller.name)"
    }
}
