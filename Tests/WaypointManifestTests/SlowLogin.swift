import Waypoint

/// A `login` barrier whose check (the login screen) finishes only when the test says the user has
/// answered, however long the test's clock has run meanwhile.
final class SlowLogin: Sendable {
    private let signedIn = Locked(false)
    private let answered = Locked(false)

    var barrier: Barrier {
        Barrier("login") { [signedIn] _ in
            signedIn.withLock { $0 } ? .passed : .needsCheck
        } check: { [signedIn, answered] _ in
            while !answered.withLock({ $0 }) { await Task.yield() }  // the user takes their time
            signedIn.withLock { $0 = true }
            return true
        }
    }

    /// The user logs in.
    func answer() { answered.withLock { $0 = true } }
}
