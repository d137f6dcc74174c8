@testable import Waypoint

/// The tests' reading of the package's one lock box.
extension Locked {
    func read<Result>(_ body: (State) -> Result) -> Result { withLock { body($0) } }
    func update<Result>(_ body: (inout State) -> Result) -> Result { withLock(body) }
    var current: State { withLock { $0 } }
}
