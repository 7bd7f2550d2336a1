#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
internal import SimulationRuntimeShims

/// The memory a run shares with the shim's plain-access functions (`swift_beginAccess`, the
/// frees of Swift objects, and the real locks, semaphores and groups that order accesses): whether
/// the run checks app code's plain accesses for data races, and how many locations its detector
/// keeps (none: a free or a lock costs the shim no call).
///
/// ```swift
/// let table = PlainAccessTable()
/// table.isEnabled = true                      // the run checks data races
/// let previous = ThreadMark.enter(scheduler, locks: nil, accesses: table)
/// table.setLocationCounts(all: detector.locations.count, plain: 1)
/// ```
///
/// Contract: one per run, written by the run's engine code on the thread holding its baton, read
/// by the shim on the run's threads; it outlives every mark that names it.
package final class PlainAccessTable {
    @usableFromInline let memory: UnsafeMutableRawPointer

    package init() {
        memory = UnsafeMutableRawPointer(UnsafeMutablePointer<bgsim_plain_accesses>.allocate(capacity: 1))
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<bgsim_plain_accesses>.size)
    }

    deinit {
        memory.deallocate()
    }

    /// Whether this process sees plain accesses (Linux with glibc, 64-bit) and has app code to
    /// see them in (the `bgsim` executable has none: its runs pay nothing).
    package static var isSupported: Bool { bgsim_plain_accesses_supported() != 0 }

    /// Whether the shim tells the engine about plain accesses on threads marked with this table.
    package var isEnabled: Bool {
        get { memory.assumingMemoryBound(to: bgsim_plain_accesses.self).pointee.enabled != 0 }
        set { memory.assumingMemoryBound(to: bgsim_plain_accesses.self).pointee.enabled = newValue ? 1 : 0 }
    }

    /// Marks the memory around `address` as holding a location or a synchronisation object the
    /// run's detector keeps: a free there is told to the engine (one that touches no marked
    /// memory is not).
    package func markKept(_ address: UInt) {
        bgsim_plain_accesses_mark(memory.assumingMemoryBound(to: bgsim_plain_accesses.self), address)
    }

    /// The locations the run's detector keeps, and of those the plain ones.
    package func setLocationCounts(all: Int, plain: Int) {
        let table = memory.assumingMemoryBound(to: bgsim_plain_accesses.self)
        table.pointee.locations = Int32(clamping: all)
        table.pointee.plainLocations = Int32(clamping: plain)
    }
}

/// Names for the app code that made a plain access: the function around a return address, from
/// the main executable's symbol table, demangled.
///
/// ```swift
/// FunctionSymbols.symbol(containing: site)?.short   // "Uploader.finish() -> ()", or nil
/// ```
///
/// Contract: the same name for the same code in every process (names, never addresses); nil for
/// code outside the main executable or without a symbol (a stripped binary).
package enum FunctionSymbols {
    /// The function containing `pc`, named without the modules in `hiddenModules` (besides its
    /// own and the standard library's).
    package static func symbol(containing pc: UInt, hiddenModules: [String] = []) -> SwiftSymbolName? {
        guard let raw = UnsafeRawPointer(bitPattern: pc), let mangled = bgsim_function_symbol(raw) else { return nil }
        let text = String(cString: mangled)
        return SwiftSymbolName(mangled: text, demangled: demangle(text) ?? text, hiddenModules: hiddenModules)
    }

    private static func demangle(_ mangled: String) -> String? {
        mangled.withCString { pointer -> String? in
            guard let result = swift_demangle(pointer, strlen(pointer), nil, nil, 0) else { return nil }
            defer { free(result) }
            return String(cString: result)
        }
    }
}

/// The runtime's demangler (exported by the Swift runtime, declared in no header).
@_silgen_name("swift_demangle")
private func swift_demangle(
    _ mangledName: UnsafePointer<CChar>, _ length: Int, _ outputBuffer: UnsafeMutablePointer<CChar>?,
    _ outputBufferSize: UnsafeMutablePointer<Int>?, _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?
