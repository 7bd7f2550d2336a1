extension Array {
    /// Removes the elements that match `predicate`, keeping the others in order (the same
    /// result as `removeAll(where:)`). For the short lists the checkers keep per event this is
    /// cheaper: `removeAll(where:)` partitions and then empties the tail through the generic
    /// `replaceSubrange`, ~200 instructions per call even when one element goes.
    @inline(__always)
    mutating func removeEach(where predicate: (Element) -> Bool) {
        var index = 0
        while index < count {
            if predicate(self[index]) {
                remove(at: index)
            } else {
                index += 1
            }
        }
    }
}
