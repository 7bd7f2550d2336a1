/// A 64-bit seed: one value from which a campaign, a run or a subsystem draws all its randomness.
///
/// Seeds are written as `0x` and 16 lowercase hex digits (``description``) and read in that form
/// or as a decimal number (``init(parsing:)``). A campaign seed derives one seed per run with
/// ``derive(index:)``, and a run seed derives one seed per subsystem with ``derive(_:)``, so every
/// run can be replayed from its own seed, alone, in a new process.
///
/// ```swift
/// let campaign = try Seed(parsing: "0x00000000000004d2")
/// let run7 = campaign.derive(index: 7)
/// let scheduling = run7.derive("scheduler")
/// print(run7)   // "0x…", 16 hex digits: paste it into `bgsim replay --seed`
/// ```
///
/// Contract: a seed is just its ``rawValue``; equality, hashing and ordering are those of the raw
/// value. Derivations are pure functions, fixed forever and pinned by golden tests.
public struct Seed: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The seed's 64 bits.
    public var rawValue: UInt64

    /// Wraps a raw 64-bit value.
    ///
    /// ```swift
    /// let seed = Seed(rawValue: 0x2a)
    /// ```
    ///
    /// - Parameter rawValue: any 64-bit value; every value is a valid seed.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Wraps a raw 64-bit value (unlabelled spelling of ``init(rawValue:)``).
    ///
    /// ```swift
    /// let seed = Seed(0x2a)
    /// ```
    ///
    /// - Parameter rawValue: any 64-bit value.
    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// `0x` followed by exactly 16 lowercase hex digits, e.g. `0x000000000000002a`.
    ///
    /// ```swift
    /// Seed(42).description   // "0x000000000000002a"
    /// ```
    ///
    /// Contract: always 18 characters; `Seed(parsing: seed.description)` gives `seed` back.
    public var description: String {
        "0x" + Hex.sixteenDigits(rawValue)
    }

    /// Orders seeds by their raw value.
    ///
    /// ```swift
    /// Seed(1) < Seed(2)   // true
    /// ```
    public static func < (lhs: Seed, rhs: Seed) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
