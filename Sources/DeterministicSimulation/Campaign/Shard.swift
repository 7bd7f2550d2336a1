/// One of `count` disjoint slices of a campaign's runs, for CI matrices (`--shard K/N`).
///
/// ```swift
/// let shard = try Shard(parsing: "2/4")
/// shard.contains(runIndex: 5)   // true: 5 % 4 == 2 - 1
/// ```
///
/// Contract: run `i` (from 0) belongs to shard `index` (from 1) iff `i % count == index - 1`, so
/// the shards `1/N ... N/N` partition every campaign, and ``whole`` (`1/1`) holds every run.
public struct Shard: Hashable, Sendable, CustomStringConvertible {
    /// Which slice, from 1.
    public let index: Int
    /// How many slices.
    public let count: Int

    /// Every run: `1/1`.
    public static let whole = Shard(index: 1, count: 1)

    /// A shard; traps unless `1 <= index <= count` (use ``init(parsing:)`` for user input).
    ///
    /// ```swift
    /// let second = Shard(index: 2, count: 3)
    /// ```
    public init(index: Int, count: Int) {
        precondition(count >= 1 && (1...count).contains(index), "Shard \(index)/\(count): need 1 <= K <= N")
        self.index = index
        self.count = count
    }

    /// Reads `K/N` with `1 <= K <= N`, both decimal.
    ///
    /// ```swift
    /// let shard = try Shard(parsing: "1/3")
    /// ```
    ///
    /// - Throws: ``ShardParseError`` naming the text and what is wrong.
    public init(parsing text: String) throws(ShardParseError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Self.number(parts[0]), let count = Self.number(parts[1]) else {
            throw ShardParseError(text: text, reason: "expected K/N, two whole numbers")
        }
        guard count >= 1, (1...count).contains(index) else {
            throw ShardParseError(text: text, reason: "K must be between 1 and N")
        }
        self.init(index: index, count: count)
    }

    /// Whether run `runIndex` (from 0) is in this shard.
    public func contains(runIndex: Int) -> Bool { runIndex % count == index - 1 }

    /// How many of `runs` runs (indices `0..<runs`) are in this shard.
    package func runCount(of runs: Int) -> Int {
        runs <= index - 1 ? 0 : (runs - index) / count + 1
    }

    /// The campaign run index of this shard's `position`-th run (from 0).
    public func runIndex(at position: Int) -> Int { index - 1 + position * count }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }

    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(text)
    }
}

/// Why a text is not a shard.
///
/// Contract: ``description`` is one line, `"<text>" is not a shard: <reason>`.
public struct ShardParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text as given.
    public var text: String
    /// What is wrong.
    public var reason: String

    public var description: String { "\"\(text)\" is not a shard: \(reason)" }
}
