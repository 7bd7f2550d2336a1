/// A labelled block of a run's recorded choices: the draws one part of the run made together,
/// which a shrinker can edit as a unit (Hypothesis' "examples"). For the simulator: the
/// exploration strategy's coin and a swarm run's mix (``ChoiceSpan/Kind``).
///
/// ```swift
/// let source = ChoiceSource(replaying: failing)
/// _ = target.run(choices: source, keepTrace: false)
/// if let mix = source.spans.first(where: { $0.kind == .swarmMix }) { print(mix.draws) }   // 1..<14
/// ```
///
/// Contract: `draws` are positions in the run's ``ChoiceSource/recorded`` sequence, possibly
/// empty (every draw of the block had one possible outcome). Marked by
/// ``ChoiceSource/markSpan(_:from:)``, which draws nothing: spans never change a run.
public struct ChoiceSpan: Sendable, Hashable {
    /// What the draws of a span decided.
    public enum Kind: UInt8, Sendable, Hashable, CaseIterable {
        /// The coin of a `default` (or `coverage`) run: random (0) or swarm (1).
        case strategyCoin
        /// A swarm run's mix: one draw per enabled action, then the pace; all 0 is the scenario's own mix.
        case swarmMix
    }

    /// What the draws decided.
    public var kind: Kind
    /// The positions of the span's draws.
    public var draws: Range<Int>

    public init(kind: Kind, draws: Range<Int>) {
        self.kind = kind
        self.draws = draws
    }
}
