import Foundation

/// The time source of a ``LinkDispatcher``: timeouts, pending-link ages, event durations.
///
/// Waypoint supports iOS 15, which has no `ContinuousClock`, so times are `TimeInterval` seconds.
/// Tests use the `ManualClock` of `WaypointTesting` to run timeouts without waiting.
public protocol DispatchClock: Sendable {
    /// Monotonic seconds since an arbitrary origin.
    func now() -> TimeInterval
    /// Suspends for `seconds`; throws `CancellationError` when the task is cancelled.
    func sleep(seconds: TimeInterval) async throws
}

/// The system's monotonic clock.
public struct SystemDispatchClock: DispatchClock {
    public init() {}
    public func now() -> TimeInterval { ProcessInfo.processInfo.systemUptime }
    public func sleep(seconds: TimeInterval) async throws {
        try await Task.sleep(nanoseconds: nanoseconds(seconds))
    }
}

/// `seconds` as nanoseconds to sleep: none for a negative or NaN time, and at most a thousand million
/// seconds (some 31 years), so an infinite timeout waits rather than traps.
func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
    guard seconds > 0 else { return 0 }
    return UInt64(min(seconds, 1_000_000_000) * 1_000_000_000)
}
