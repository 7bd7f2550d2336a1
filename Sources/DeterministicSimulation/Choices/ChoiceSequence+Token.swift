extension ChoiceSequence {
    /// The prefix of every token; the `1` is the format version.
    package static let tokenPrefix = "c1."

    /// The sequence as a compact, URL- and shell-safe text: `c1.` followed by the unpadded
    /// base64url encoding (RFC 4648 §5) of the values as unsigned LEB128 varints.
    ///
    /// ```swift
    /// ChoiceSequence([]).token          // "c1."
    /// ChoiceSequence([0, 1, 300]).token // "c1.AAGsAg"  (bytes 00 01 ac 02)
    /// ```
    ///
    /// Contract: canonical (minimal varints, zero padding bits), so equal sequences give equal
    /// tokens and `ChoiceSequence(token: s.token) == s`. Values below 128 take one byte, so a
    /// typical token is about 1.4 characters per draw. O(n).
    public var token: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count * 2)
        for value in values {
            var rest = value
            while rest >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
                rest >>= 7
            }
            bytes.append(UInt8(rest))
        }
        return Self.tokenPrefix + Base64URL.encode(bytes)
    }

    /// Reads a token made by ``token``.
    ///
    /// ```swift
    /// let shrunk = try ChoiceSequence(token: "c1.AAGsAg")   // [0, 1, 300]
    /// ```
    ///
    /// Contract: strict. Rejects a wrong or missing prefix, characters outside base64url
    /// (`A-Z a-z 0-9 - _`; no padding, no whitespace), an impossible length, nonzero padding
    /// bits, a truncated varint, an overlong varint and a value above `UInt64.max`.
    ///
    /// - Parameter token: the text, e.g. from `bgsim replay --choices`.
    /// - Throws: ``ChoiceTokenError`` with the reason.
    /// - Complexity: O(length of `token`).
    public init(token: String) throws(ChoiceTokenError) {
        let utf8 = Array(token.utf8)
        let prefix = Array(Self.tokenPrefix.utf8)
        guard utf8.count >= prefix.count, Array(utf8[0..<prefix.count]) == prefix else {
            throw ChoiceTokenError(
                reason: "it must start with \"\(Self.tokenPrefix)\" (got "
                    + TextEscaping.quoted(String(token.prefix(12))) + ")")
        }
        let bytes = try Base64URL.decode(utf8[prefix.count...], offset: prefix.count)
        self.init(try Self.decodeVarints(bytes))
    }

    private static func decodeVarints(_ bytes: [UInt8]) throws(ChoiceTokenError) -> [UInt64] {
        var values: [UInt64] = []
        values.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            var byteCount = 0
            while true {
                guard index < bytes.count else {
                    throw ChoiceTokenError(
                        reason: "truncated varint at the end (value \(values.count))")
                }
                let byte = bytes[index]
                index += 1
                byteCount += 1
                let payload = UInt64(byte & 0x7f)
                if shift == 63, payload > 1 || byte & 0x80 != 0 {
                    throw ChoiceTokenError(
                        reason: "value \(values.count) is larger than UInt64.max")
                }
                value |= payload << shift
                if byte & 0x80 == 0 {
                    if byte == 0, byteCount > 1 {
                        throw ChoiceTokenError(
                            reason: "overlong varint (value \(values.count) has a trailing "
                                + "zero byte)")
                    }
                    break
                }
                shift += 7
            }
            values.append(value)
        }
        return values
    }
}
