#if canImport(Glibc)
    package import Glibc
#elseif canImport(Darwin)
    package import Darwin
#endif

/// Keeps the OS threads of one run on one CPU while it runs (Linux; elsewhere it does nothing).
///
/// ```swift
/// var placement = CPUPlacement()
/// placement.begin(threads: pool.threadIDs)   // at the start of a run call, on the driver
/// // ... the run: every baton handoff stays on this CPU ...
/// placement.end()               // the driver is free to move again
/// ```
///
/// Why: a baton handoff wakes a parked thread. Linux wakes it on an idle CPU when there is one,
/// and waking an idle CPU costs 12-50 µs on the 2-core VMs we measure on, against about 3 µs for
/// a switch between two threads of one CPU (PITFALLS point 10; ControlledConcurrency article).
/// A lone campaign job (`--jobs 1`) always has an idle CPU beside it, so without this most of its
/// time went to waking that CPU.
///
/// How: at the start of each run call, the driver pins itself to the CPU it is on and the
/// pool's threads follow it there (re-pinned only when the driver's CPU changed since the last
/// run); at the end the driver gets its own mask back, so between runs the kernel may move it
/// (away from a busy CPU) and the next run follows. Measured with `bgsim fuzz` on 2 cores: one
/// job went from 489 to 1,825 token runs/s; two `--jobs 1` processes started together ran at
/// full speed each (four tries), and so did one beside a busy loop, pinned or not.
///
/// Contract: changes only where threads run, never what they do: results and digests do not
/// depend on it (the scheduler decides every order). Off when the process may use one CPU, or
/// when the environment variable `BGSIM_CPU_PINNING` is `off`. Not thread-safe: one per pool,
/// used by the thread that runs the pool's runs.
package struct CPUPlacement {
    /// Whether pinning is allowed in this process (read once).
    package static let isEnabled: Bool = {
        #if canImport(Glibc)
            if let value = getenv("BGSIM_CPU_PINNING"), String(cString: value) == "off" { return false }
            guard let calls = LinuxAffinityCalls.shared else { return false }
            var mask = cpu_set_t()
            guard calls.getAffinity(0, MemoryLayout<cpu_set_t>.size, &mask) == 0 else { return false }
            return CPUPlacement.count(mask) > 1
        #else
            return false
        #endif
    }()

    #if canImport(Glibc)
        /// The CPU the pool's threads are pinned to (-1: none yet).
        private var poolCPU: Int32 = -1
        /// The driver's own mask while it is pinned for a run.
        private var driverMask: cpu_set_t?
    #endif

    package init() {}

    /// Pins the calling driver to its CPU and moves the pool's threads (by kernel thread id,
    /// ``LinuxAffinityCalls/threadID``; 0 for none) there.
    package mutating func begin(threads: some Sequence<pid_t>) {
        #if canImport(Glibc)
            guard Self.isEnabled, driverMask == nil else { return }
            guard let calls = LinuxAffinityCalls.shared else { return }
            let cpu = calls.currentCPU()
            guard cpu >= 0 else { return }
            var own = cpu_set_t()
            guard calls.getAffinity(0, MemoryLayout<cpu_set_t>.size, &own) == 0 else { return }
            var target = Self.mask(cpu)
            guard calls.setAffinity(0, MemoryLayout<cpu_set_t>.size, &target) == 0 else { return }
            driverMask = own
            if cpu != poolCPU {
                poolCPU = cpu
                for thread in threads { Self.pin(thread, to: cpu) }
            }
        #endif
    }

    /// Pins a thread the pool made during the run to the run's CPU.
    package func place(_ thread: pid_t) {
        #if canImport(Glibc)
            if driverMask != nil, poolCPU >= 0 { Self.pin(thread, to: poolCPU) }
        #endif
    }

    /// Lets the thread with kernel id `thread` run only on `cpu` (nothing for id 0, or where
    /// pinning is unavailable).
    private static func pin(_ thread: pid_t, to cpu: Int32) {
        #if canImport(Glibc)
            guard thread != 0, let calls = LinuxAffinityCalls.shared else { return }
            var mask = mask(cpu)
            _ = calls.setAffinity(thread, MemoryLayout<cpu_set_t>.size, &mask)
        #endif
    }

    /// Gives the driver its own mask back.
    package mutating func end() {
        #if canImport(Glibc)
            guard var own = driverMask, let calls = LinuxAffinityCalls.shared else { return }
            driverMask = nil
            _ = calls.setAffinity(0, MemoryLayout<cpu_set_t>.size, &own)
        #endif
    }

    #if canImport(Glibc)
        /// A mask of one CPU.
        static func mask(_ cpu: Int32) -> cpu_set_t {
            var set = cpu_set_t()
            withUnsafeMutableBytes(of: &set) { bytes in
                let words = bytes.bindMemory(to: UInt.self)
                let bits = UInt.bitWidth
                words[Int(cpu) / bits] |= 1 << (UInt(cpu) % UInt(bits))
            }
            return set
        }

        /// The number of CPUs in a mask.
        static func count(_ set: cpu_set_t) -> Int {
            var set = set
            return withUnsafeBytes(of: &set) { bytes in
                bytes.bindMemory(to: UInt.self).reduce(0) { $0 + $1.nonzeroBitCount }
            }
        }
    #endif
}

#if canImport(Glibc)
    /// Linux's affinity calls, which Swift's Glibc module does not import (they need
    /// `_GNU_SOURCE`): looked up once with `dlsym`; nil where one is missing (then nothing is
    /// pinned).
    package struct LinuxAffinityCalls: @unchecked Sendable {
        // @unchecked Sendable: immutable C function pointers.
        typealias Affinity = @convention(c) (pid_t, Int, UnsafeMutablePointer<cpu_set_t>) -> Int32
        /// `sched_getaffinity` and `sched_setaffinity`: pid 0 is the calling thread, a thread id
        /// another thread.
        let getAffinity: Affinity
        let setAffinity: Affinity
        /// `sched_getcpu`: the CPU the caller runs on.
        let currentCPU: @convention(c) () -> Int32
        /// `gettid`: the calling thread's id.
        package let threadID: @convention(c) () -> pid_t

        package static let shared: LinuxAffinityCalls? = {
            func find<T>(_ name: String, as type: T.Type) -> T? {
                guard let symbol = dlsym(nil, name) else { return nil }
                return unsafeBitCast(symbol, to: type)
            }
            guard let get = find("sched_getaffinity", as: Affinity.self),
                let set = find("sched_setaffinity", as: Affinity.self),
                let cpu = find("sched_getcpu", as: (@convention(c) () -> Int32).self),
                let tid = find("gettid", as: (@convention(c) () -> pid_t).self)
            else { return nil }
            return LinuxAffinityCalls(getAffinity: get, setAffinity: set, currentCPU: cpu, threadID: tid)
        }()
    }
#endif
