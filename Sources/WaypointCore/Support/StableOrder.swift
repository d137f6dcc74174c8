extension Array {
    /// The elements in the order `areInIncreasingOrder` gives; equal elements keep their order.
    ///
    /// Every sort in the core goes through ``stableOrder(count:by:)``, one sort of indices: the
    /// standard library's sort is compiled anew for each element type and comparison it is given
    /// (about 3 KB of device code each), and the core sorts a dozen kinds of things, mostly while a
    /// table is built or a message is written.
    package func stablySorted(by areInIncreasingOrder: (Element, Element) -> Bool) -> [Element] {
        stableOrder(count: count) { areInIncreasingOrder(self[$0], self[$1]) }.map { self[$0] }
    }
}

extension Array where Element: Comparable {
    /// The elements in increasing order.
    package func stablySorted() -> [Element] { stablySorted(by: <) }
}

extension Array where Element == Int {
    /// Sorts in place with the core's one sort, equal elements in increasing order of their values:
    /// stable for an array of indices built in increasing order (the route table's build sorts its
    /// edges this way, without a copy).
    mutating func stablySort(by areInIncreasingOrder: (Int, Int) -> Bool) {
        withoutActuallyEscaping(areInIncreasingOrder) { IndexOrder(areInIncreasingOrder: $0).sort(&self) }
    }
}

/// The indices `0..<count` in the order `areInIncreasingOrder` gives them, ties in index order.
func stableOrder(count: Int, by areInIncreasingOrder: (Int, Int) -> Bool) -> [Int] {
    var order = [Int](0..<count)
    order.stablySort(by: areInIncreasingOrder)
    return order
}

/// A comparison held in a value, so the optimiser cannot copy the sort below once for each
/// comparison it is called with (it does for a closure passed straight to a function).
private struct IndexOrder {
    let areInIncreasingOrder: (Int, Int) -> Bool

    /// Ties keep their order: of two equal elements, the smaller comes first.
    @inline(never)
    func sort(_ elements: inout [Int]) {
        elements.sort { areInIncreasingOrder($0, $1) || (!areInIncreasingOrder($1, $0) && $0 < $1) }
    }
}
