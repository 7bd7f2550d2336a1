/// Fixed-width lowercase hexadecimal formatting, shared by seeds and digests.
enum Hex {
    /// `value` as exactly 16 lowercase hex digits, zero-padded: `0x2a` gives `"000000000000002a"`.
    static func sixteenDigits(_ value: UInt64) -> String {
        let digits = String(value, radix: 16, uppercase: false)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
