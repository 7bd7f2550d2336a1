#if canImport(Glibc)
    package import Glibc
#elseif canImport(Darwin)
    package import Darwin
#endif
import Foundation

/// How an isolated child dies with its parent, however the parent ends (SIGKILL included), even
/// while its run spins without yielding: the parent holds the write end of a pipe whose read end
/// is the child's descriptor 3 and writes nothing to it; the kernel closes it when the parent
/// dies, and a thread of the child that waits on it ends the child at end of file (libFuzzer's
/// fork mode watches its parent the same way). On Linux the child also asks for SIGKILL at its
/// parent's death (`PR_SET_PDEATHSIG`), then checks its parent is still the one that started it.
///
/// ```swift
/// // the child, first thing (bgsim's `_isolated-worker`):
/// if ParentLifeline.watch(exitCode: 0) { signal(SIGINT, SIG_IGN) }   // the parent decides
/// // the parent: ChildConnection passes `environment(parent:)` and dups the pipe to `descriptor`.
/// ```
///
/// Contract: ``watch(exitCode:)`` does nothing in a process not started by the engine's `ChildConnection`.
/// The parent's end is close-on-exec and only its own child has the read end, so no other
/// process keeps the pipe open.
package enum ParentLifeline {
    /// The child's descriptor for the read end.
    package static let descriptor: Int32 = 3
    /// The environment variable that tells the child to watch: `"3:<parent pid>"`.
    package static let variable = "BGSIM_PARENT_LIFELINE"

    /// The child's environment entry, for a child of this process.
    package static func environment(parent: pid_t) -> String { "\(variable)=\(descriptor):\(parent)" }

    /// In a child started by the engine's `ChildConnection`: arranges to end with `exitCode` when the parent
    /// is gone (at once if it already is), and removes the variable so the child's own children
    /// do not inherit it. Returns whether this process is such a child.
    package static func watch(exitCode: Int32) -> Bool {
        guard let value = getenv(variable).map({ String(cString: $0) }) else { return false }
        unsetenv(variable)
        let fields = value.split(separator: ":").compactMap { Int32($0) }
        guard fields.count == 2, fcntl(fields[0], F_GETFD) >= 0 else { return false }
        let (descriptor, parent) = (fields[0], fields[1])
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)  // not for the crash reporter's helper
        askForDeathSignal()
        if getppid() != parent { _exit(exitCode) }  // the parent died before we asked
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(descriptor, &byte, 1)
                if count == 0 || (count < 0 && errno != EINTR) { _exit(exitCode) }
            }
        }
        thread.name = "parent-watch"
        thread.stackSize = 64 << 10
        thread.start()
        return true
    }

    /// Linux: SIGKILL when the thread that started us ends (``SpawnThread`` lives as long as the
    /// parent process). `prctl` is variadic, so Swift does not import it: it is called through
    /// its address with the five-argument form its kernel call takes (integer arguments pass the
    /// same way to a variadic function on Linux's x86-64 and arm64 calling conventions).
    private static func askForDeathSignal() {
        #if os(Linux)
            typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
            guard let address = dlsym(nil, "prctl") else { return }  // nil: RTLD_DEFAULT
            let setParentDeathSignal: Int32 = 1  // PR_SET_PDEATHSIG in <linux/prctl.h>
            _ = unsafeBitCast(address, to: Prctl.self)(setParentDeathSignal, UInt(SIGKILL), 0, 0, 0)
        #endif
    }
}
