extension Array {
    /// The elements in the order `areInIncreasingOrder` gives; equal elements keep their order.
    ///
    /// Every sort in the core goes through ``stableOrder(count:by:)``, one sort of indices: the
    /// standard library's sort is compiled anew for each element type and comparison it is given
    /// (about 3 KB of device code each), and the core sorts a dozen kinds of things, mostly while a
    /// table is built or a message is written.
    func stablySorted(by areInIncreasingOrder: (Element, Element) -> Bool) -> [Element] {
        stableOrder(count: count) { areInIncreasingOrder(self[$0], self[$1]) }.map { self[$0] }
    }
}

extension Array where Element: Comparable {
    /// The elements in increasing order.
    func stablySorted() -> [Element] { stablySorted(by: <) }
}

/// The indices `0..<count` in the order `areInIncreasingOrder` gives them, ties in index order.
func stableOrder(count: Int, by areInIncreasingOrder: (Int, Int) -> Bool) -> [Int] {
    withoutActuallyEscaping(areInIncreasingOrder) { IndexOrder(areInIncreasingOrder: $0).indices(count) }
}

/// A comparison held in a value, so the optimiser cannot copy the sort below once for each
/// comparison it is called with (it does for a closure passed straight to a function).
private struct IndexOrder {
    let areInIncreasingOrder: (Int, Int) -> Bool

    @inline(never)
    func indices(_ count: Int) -> [Int] {
        var order = [Int](0..<count)
        order.sort { areInIncreasingOrder($0, $1) || (!areInIncreasingOrder($1, $0) && $0 < $1) }
        return order
    }
}
