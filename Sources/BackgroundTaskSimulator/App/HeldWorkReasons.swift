/// The reasons ``SimEvent/nothingHeld(reason:)`` gives that the hot path builds, written byte by
/// byte: string interpolation cost ~1,500 instructions per reason, and the last task of a save
/// ending in the background builds one on most saves.
///
/// Contract: each function returns exactly the string its doc comment shows as an
/// interpolation (a test compares them), so traces and digests do not change.
enum HeldWorkReasons {
    /// The reason at the suspension itself (B2.3), which checkers compare against.
    static let suspended = "the app was suspended"

    /// `"background task \(id) (\(name)) ended"`.
    static func taskEnded(id: Int, name: String) -> String {
        var name = name
        return name.withUTF8 { nameBytes in
            let head: StaticString = "background task "
            let middle: StaticString = " ("
            let tail: StaticString = ") ended"
            let magnitude = id.magnitude
            var digits = 1
            var rest = magnitude / 10
            while rest != 0 {
                digits += 1
                rest /= 10
            }
            let sign = id < 0 ? 1 : 0
            let total = head.utf8CodeUnitCount + sign + digits + middle.utf8CodeUnitCount
                + nameBytes.count + tail.utf8CodeUnitCount
            return String(unsafeUninitializedCapacity: total) { buffer in
                var at = 0
                func put(_ text: StaticString) {
                    for index in 0..<text.utf8CodeUnitCount {
                        buffer[at] = text.utf8Start[index]
                        at += 1
                    }
                }
                put(head)
                if sign == 1 {
                    buffer[at] = UInt8(ascii: "-")
                    at += 1
                }
                var value = magnitude
                var position = at + digits - 1
                while true {
                    buffer[position] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                    if value == 0 { break }
                    position -= 1
                }
                at += digits
                put(middle)
                for byte in nameBytes {
                    buffer[at] = byte
                    at += 1
                }
                put(tail)
                return at
            }
        }
    }
}
