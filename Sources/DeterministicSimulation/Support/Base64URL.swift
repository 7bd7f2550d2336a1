/// Unpadded base64url (RFC 4648 §5), strict on decoding.
enum Base64URL {
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes `bytes` without `=` padding.
    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= bytes.count {
            let word = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
                | UInt32(bytes[index + 2])
            out.append(alphabet[Int(word >> 18 & 63)])
            out.append(alphabet[Int(word >> 12 & 63)])
            out.append(alphabet[Int(word >> 6 & 63)])
            out.append(alphabet[Int(word & 63)])
            index += 3
        }
        let rest = bytes.count - index
        if rest == 1 {
            let word = UInt32(bytes[index]) << 16
            out.append(alphabet[Int(word >> 18 & 63)])
            out.append(alphabet[Int(word >> 12 & 63)])
        } else if rest == 2 {
            let word = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            out.append(alphabet[Int(word >> 18 & 63)])
            out.append(alphabet[Int(word >> 12 & 63)])
            out.append(alphabet[Int(word >> 6 & 63)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes unpadded base64url; `offset` is the position of `text` in the whole token, for
    /// messages. Rejects other characters, a length of 4n+1 and nonzero padding bits.
    static func decode(_ text: ArraySlice<UInt8>, offset: Int) throws(ChoiceTokenError) -> [UInt8] {
        if text.count % 4 == 1 {
            throw ChoiceTokenError(
                reason: "truncated: \(text.count) base64url characters cannot encode whole bytes")
        }
        var out: [UInt8] = []
        out.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for (position, character) in zip(text.indices, text) {
            guard let sextet = sextetValue(character) else {
                let shown = TextEscaping.describeByte(character)
                throw ChoiceTokenError(
                    reason: "invalid character \(shown) at offset "
                        + "\(offset + position - text.startIndex)"
                        + "; tokens use base64url (A-Z a-z 0-9 - _) without padding")
            }
            accumulator = accumulator << 6 | UInt32(sextet)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        if accumulator != 0 {
            throw ChoiceTokenError(reason: "non-canonical base64url: the padding bits are not zero")
        }
        return out
    }

    private static func sextetValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
