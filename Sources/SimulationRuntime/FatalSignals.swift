#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's handler for fatal signals, and the alternate stack each thread needs for it to
/// run: the mechanism under the engine's crash reports (its `CrashSignals` decides what a
/// handler writes).
///
/// ```swift
/// FatalSignals.install([SIGILL, SIGSEGV], handler: handleFatalSignal)   // once per process
/// FatalSignals.prepareAlternateStack()                                   // on every thread that may crash
/// ```
///
/// Contract: the handler runs on the crashing thread's alternate stack (`SA_ONSTACK`), so a
/// stack overflow's SIGSEGV still runs it on a thread that called ``prepareAlternateStack()``;
/// it must do only async-signal-safe work (``SignalSafeOutput``, `_exit`). Installing again
/// replaces the handler. An alternate stack is made once per thread and freed when the thread
/// ends.
package enum FatalSignals {
    /// The size of each thread's alternate signal stack.
    static let alternateStackSize = 64 << 10

    /// Makes `handler` the action of each of `signals`, on the alternate stack.
    package static func install(_ signals: [Int32], handler: @convention(c) (Int32) -> Void) {
        _ = alternateStackKey
        for number in signals {
            var action = sigaction()
            #if canImport(Glibc)
                action.__sigaction_handler.sa_handler = handler
            #else
                action.__sigaction_u.__sa_handler = handler
            #endif
            action.sa_flags = Int32(SA_ONSTACK)
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    /// Gives the calling thread an alternate signal stack, once (nothing if it has one).
    package static func prepareAlternateStack() {
        guard pthread_getspecific(alternateStackKey) == nil else { return }
        let stack = UnsafeMutableRawPointer.allocate(byteCount: alternateStackSize, alignment: 16)
        var alternate = stack_t()
        alternate.ss_sp = stack
        alternate.ss_size = alternateStackSize
        alternate.ss_flags = 0
        if sigaltstack(&alternate, nil) == 0 {
            pthread_setspecific(alternateStackKey, stack)
        } else {
            stack.deallocate()
        }
    }

    /// Each thread's alternate stack: disabled and freed when the thread ends.
    private static let alternateStackKey: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Glibc)
            let status = pthread_key_create(&key) { pointer in
                var disable = stack_t()
                disable.ss_flags = Int32(SS_DISABLE)
                sigaltstack(&disable, nil)
                pointer?.deallocate()
            }
        #else
            let status = pthread_key_create(&key) { pointer in
                var disable = stack_t()
                disable.ss_flags = Int32(SS_DISABLE)
                sigaltstack(&disable, nil)
                pointer.deallocate()
            }
        #endif
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()
}

/// An integer per thread, readable from a signal handler: a `pthread_key_t` holding the value
/// as a pointer's bit pattern (no allocation, nothing to free).
///
/// ```swift
/// static let slotToken = ThreadLocalInteger()
/// slotToken.value = 3          // this thread's
/// let mine = slotToken.value   // 0 on a thread that never set it
/// ```
///
/// Contract: each thread sees its own value, 0 until it sets one; reading is async-signal-safe.
package struct ThreadLocalInteger: Sendable {
    private let key: pthread_key_t

    package init() {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed (\(status)): too many thread-specific keys")
        self.key = key
    }

    /// The calling thread's value.
    package var value: Int {
        get { Int(bitPattern: pthread_getspecific(key)) }
        nonmutating set { pthread_setspecific(key, UnsafeRawPointer(bitPattern: newValue)) }
    }
}

/// Writes that are safe in a signal handler: `write(2)` until every byte is out, retried on
/// EINTR, no allocation.
///
/// ```swift
/// SignalSafeOutput.write(2, banner)   // [UInt8] prepared before any crash
/// ```
///
/// Contract: gives up silently on an error other than EINTR (a crash report does its best).
package enum SignalSafeOutput {
    /// Writes all of `bytes` to `fd`.
    package static func write(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
    }

    /// Writes `count` bytes from `start` to `fd`.
    package static func write(_ fd: Int32, _ start: UnsafePointer<UInt8>?, _ count: Int) {
        guard var next = start else { return }
        var left = count
        while left > 0 {
            #if canImport(Glibc)
                let written = Glibc.write(fd, next, left)
            #else
                let written = Darwin.write(fd, next, left)
            #endif
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            left -= written
            next += written
        }
    }
}
