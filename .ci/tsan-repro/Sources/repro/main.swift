import Dispatch
import Glibc
import Synchronization
// Modes (argument 1):
//   mutex     8 threads increment a dictionary under Synchronization.Mutex (correct code).
//   racy      + an unlocked increment of a shared counter, outside any Mutex (real race).
//   half      + a shared counter written inside withLock bodies but read by a thread that
//               takes no lock (real race: one side locked, other side not).
//   annotated like mutex, but each withLock body tells TSan acquire/release on the Mutex
//             (prototype of the alternative to a suppression).
//   annotated-racy / annotated-half  the two real races again, with the annotation.
// Run: swift build --sanitize=thread && $(swift build --sanitize=thread --show-bin-path)/repro MODE
// Add TSAN_OPTIONS=suppressions=<file> to try a suppression (see ../README.md).
final class Counter: @unchecked Sendable { var n = 0 }
typealias TSanFn = @convention(c) (UnsafeMutableRawPointer?) -> Void
let tsanAcquire = dlsym(nil, "__tsan_acquire").map { unsafeBitCast($0, to: TSanFn.self) }
let tsanRelease = dlsym(nil, "__tsan_release").map { unsafeBitCast($0, to: TSanFn.self) }
nonisolated(unsafe) let syncToken = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)

let mode = CommandLine.arguments.dropFirst().first ?? "mutex"
let box = Mutex([Int: Int]())
let shared = Counter()
nonisolated(unsafe) var seen = 0
DispatchQueue.concurrentPerform(iterations: 8) { i in
    for j in 0..<2000 {
        switch mode {
        case "annotated", "annotated-racy", "annotated-half":
            box.withLock {
                tsanAcquire?(syncToken); defer { tsanRelease?(syncToken) }
                $0[j % 7, default: 0] += i
                if mode == "annotated-half" { shared.n += 1 }
            }
            if mode == "annotated-racy" { shared.n += 1 }
            if mode == "annotated-half", i == 0 { seen &+= shared.n }
        case "half":
            box.withLock { $0[j % 7, default: 0] += i; shared.n += 1 }
            if i == 0 { seen &+= shared.n }  // no lock: races with the locked writes
        default:
            box.withLock { $0[j % 7, default: 0] += i }
            if mode == "racy" { shared.n += 1 }
        }
    }
}
print(mode, box.withLock { $0.values.reduce(0, +) }, shared.n, "tsan hooks:", tsanAcquire != nil)
