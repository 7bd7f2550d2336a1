/// Text a signal handler (or a watchdog thread) may write while another thread owns it: bytes in
/// memory allocated once, up to a fixed capacity, so that writing them takes no allocation, lock
/// or formatting. The mechanism under the engine's crash slots (the banner of the run in
/// progress, with its seed stamped in place per run).
///
/// ```swift
/// let banner = SignalSafeText(capacity: 8_192)       // once, before any handler can read it
/// banner.set(Array(" during run seed 0x0000000000000000\n".utf8))
/// banner.stampHex(0x5d, at: 20)                      // 16 hex digits over the zeros, no allocation
/// banner.write(to: 2)                                // in the handler
/// ```
///
/// Contract: the owner writes (``set(_:)``, ``stampHex(_:at:)``) and publishes the change to
/// readers by an atomic store of its own; readers only call ``write(to:)``, which is
/// async-signal-safe. Text past the capacity is cut. Never freed (made for the process's life).
package final class SignalSafeText: @unchecked Sendable {
    // @unchecked: written by one owner thread, which publishes with a release store; read only
    // after the matching acquire load (see the contract).
    private let bytes: UnsafeMutablePointer<UInt8>
    /// The most bytes it holds.
    package let capacity: Int
    /// The bytes it holds now.
    package private(set) var count = 0

    package init(capacity: Int) {
        self.capacity = capacity
        bytes = .allocate(capacity: capacity)
    }

    /// Replaces the text with `text` (cut at ``capacity``).
    package func set(_ text: [UInt8]) {
        count = min(text.count, capacity)
        guard count > 0 else { return }
        text.withUnsafeBufferPointer { bytes.update(from: $0.baseAddress!, count: count) }
    }

    /// Writes `value` as 16 lowercase hex digits at `offset` (nothing if they do not fit in
    /// the text).
    @inline(__always)
    package func stampHex(_ value: UInt64, at offset: Int) {
        guard offset >= 0, offset + 16 <= count else { return }
        var rest = value
        for position in (0..<16).reversed() {
            let nibble = UInt8(truncatingIfNeeded: rest & 0xf)
            bytes[offset + position] = nibble < 10 ? 0x30 + nibble : 0x57 + nibble
            rest >>= 4
        }
    }

    /// Writes the text to `descriptor` (async-signal-safe: ``SignalSafeOutput``).
    package func write(to descriptor: Int32) {
        SignalSafeOutput.write(descriptor, bytes, count)
    }
}
