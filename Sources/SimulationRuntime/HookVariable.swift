#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A function-pointer variable another library of the process exports for others to set, such
/// as the Swift runtime's `swift_task_enqueueGlobal_hook`, found by name with `dlsym`: the
/// mechanism under the engine's executor hooks (its `GlobalExecutorHooks` decides what they do).
///
/// ```swift
/// typealias Hook = @convention(c) (UnsafeMutableRawPointer, @convention(c) (UnsafeMutableRawPointer) -> Void) -> Void
/// let variable = HookVariable<Hook>(named: "swift_task_enqueueGlobal_hook")
/// let before = variable.value      // nil: unset, or no such variable
/// variable.store(myHook)           // the library calls myHook from now on
/// ```
///
/// Contract: `Function` must be a `@convention(c)` function type (a pointer's size; anything
/// else traps at the first read or store). Reads and stores are plain: set a hook before any
/// thread may call it. A variable that does not exist reads as nil and ignores stores
/// (``exists`` is false).
package struct HookVariable<Function>: @unchecked Sendable {
    // @unchecked Sendable: the address of a process-global variable, fixed for the process.
    /// The variable's name.
    package let name: String
    private let address: UnsafeMutableRawPointer?

    /// Looks the variable up among the process's exported symbols (RTLD_DEFAULT).
    package init(named name: String) {
        self.name = name
        #if canImport(Darwin)
            address = dlsym(UnsafeMutableRawPointer(bitPattern: -2), name)  // RTLD_DEFAULT
        #else
            address = dlsym(nil, name)  // RTLD_DEFAULT
        #endif
    }

    /// Whether the process exports the variable.
    package var exists: Bool { address != nil }

    /// The function the variable holds now (nil when unset, or when it does not exist).
    package var value: Function? {
        guard let address, let pointer = address.load(as: UnsafeRawPointer?.self) else { return nil }
        return unsafeBitCast(pointer, to: Function.self)
    }

    /// Makes `function` the variable's value.
    package func store(_ function: Function) {
        address?.storeBytes(of: unsafeBitCast(function, to: UnsafeRawPointer.self), as: UnsafeRawPointer.self)
    }
}
