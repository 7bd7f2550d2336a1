#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lines of a file descriptor, read with `read(2)` as they arrive (no buffering beyond the
/// line): an isolated child's requests on its stdin.
///
/// ```swift
/// var requests = DescriptorLines(0)
/// while let line = requests.next() { answer(line) }   // nil at end of input
/// ```
///
/// Contract: each line without its newline; a last line without a newline is dropped (a
/// request is whole only with its newline); a read error other than EINTR ends the input.
package struct DescriptorLines {
    private let descriptor: Int32
    private var pending: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    package init(_ descriptor: Int32) { self.descriptor = descriptor }

    /// The next whole line, waiting for it; nil at end of input.
    package mutating func next() -> String? {
        while true {
            if let newline = pending.firstIndex(of: 0x0a) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return nil }
            pending += chunk[..<count]
        }
    }
}
