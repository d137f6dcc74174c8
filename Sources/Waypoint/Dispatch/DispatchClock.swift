import Foundation

/// The time source of a ``LinkDispatcher``: timeouts, pending-link ages, event durations.
///
/// Waypoint supports iOS 15, which has no `ContinuousClock`, so times are `TimeInterval` seconds.
/// Tests use the `ManualClock` of `WaypointTesting` to run timeouts without waiting.
///
/// ```swift
/// let clock = ManualClock()   // WaypointTesting's
/// clock.advance(by: 10)
/// clock.now()                 // 10
/// ```
public protocol DispatchClock: Sendable {
    /// Monotonic seconds since an arbitrary origin.
    func now() -> TimeInterval
    /// Suspends for `seconds`; throws `CancellationError` when the task is cancelled.
    func sleep(seconds: TimeInterval) async throws
}

/// The system's monotonic clock.
///
/// ```swift
/// let dispatcher = try LinkDispatcher<Screen>(routes: routes, policy: policy, clock: SystemDispatchClock())
/// ```
public struct SystemDispatchClock: DispatchClock {
    /// The system clock: `SystemDispatchClock()` is the default `clock` of ``LinkDispatcher``.
    public init() {}
    /// Seconds of uptime since the device started, not counting sleep (`ProcessInfo.systemUptime`): it
    /// never jumps with the wall clock.
    public func now() -> TimeInterval { ProcessInfo.processInfo.systemUptime }
    /// Sleeps for `seconds` with `Task.sleep`; throws `CancellationError` when the task is cancelled.
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
