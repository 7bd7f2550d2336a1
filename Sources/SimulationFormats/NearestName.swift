/// "Did you mean …?" suggestions: the closest known name by edit distance.
///
/// ```swift
/// NearestName.suggestion(for: "horizonSecond", among: ["runs", "seed", "horizonSeconds"])
/// // "horizonSeconds"
/// NearestName.suggestion(for: "colour", among: ["runs", "seed"])   // nil: nothing is close
/// ```
///
/// Contract:
/// - Distance is the optimal-string-alignment edit distance (insert, delete, substitute, swap two
///   adjacent characters), computed on lowercased Unicode scalars, so `Runs` matches `runs`.
/// - A candidate is suggested only if its distance is at most 0 for names of 1–2 scalars, 1 for
///   3–4, 2 for 5–8 and 3 for longer names; the closest wins and ties go to the earlier candidate,
///   so the result is deterministic.
package enum NearestName {
    /// The closest candidate within the threshold above, or `nil`.
    ///
    /// ```swift
    /// NearestName.suggestion(for: "fsat", among: ["fast", "slow"])   // "fast"
    /// ```
    package static func suggestion(for name: String, among candidates: [String]) -> String? {
        let target = Array(name.lowercased().unicodeScalars)
        let limit: Int
        switch target.count {
        case 0...2: limit = 0
        case 3...4: limit = 1
        case 5...8: limit = 2
        default: limit = 3
        }
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != name {
            let distance = editDistance(target, Array(candidate.lowercased().unicodeScalars))
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// The optimal-string-alignment distance between two scalar sequences.
    ///
    /// ```swift
    /// NearestName.editDistance(Array("ab".unicodeScalars), Array("ba".unicodeScalars))   // 1
    /// ```
    ///
    /// Complexity: O(a.count × b.count) time and space.
    package static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let width = b.count + 1
        var table = [Int](repeating: 0, count: (a.count + 1) * width)
        for i in 0...a.count { table[i * width] = i }
        for j in 0...b.count { table[j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(
                    table[(i - 1) * width + j] + 1,
                    table[i * width + j - 1] + 1,
                    table[(i - 1) * width + j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, table[(i - 2) * width + j - 2] + 1)
                }
                table[i * width + j] = value
            }
        }
        return table[a.count * width + b.count]
    }
}
