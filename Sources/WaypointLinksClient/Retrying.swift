import Foundation
import Waypoint

/// Runs `body`, and again after each failure `worthRetrying` accepts, up to `retries` more times:
/// waiting `firstDelay` seconds before the first extra try and twice as long before each next one.
/// The last failure, or the first one not worth retrying, is thrown.
///
/// The service's answers fall in two kinds: a definite one (expired, already claimed) is the same
/// however often it is asked; "could not be reached" may change within seconds, while someone waits.
func retrying<Value, Failure: Error>(
    _ retries: Int,
    firstDelay: TimeInterval,
    when worthRetrying: (Failure) -> Bool,
    _ body: () async throws(Failure) -> Value
) async throws(Failure) -> Value {
    var delay = firstDelay
    var attempt = 0
    while true {
        do {
            return try await body()
        } catch {
            // A cancelled task (the scene went away, the launch ended) tries no more.
            guard attempt < retries, worthRetrying(error), !Task.isCancelled else { throw error }
            attempt += 1
            // At most an hour a wait: a delay given as `.infinity` must not trap.
            try? await Task.sleep(nanoseconds: UInt64(min(max(0, delay), 3_600) * 1_000_000_000))
            if Task.isCancelled { throw error }
            delay *= 2
        }
    }
}

/// The retries a wrapper is given, checked when it is made: a count and a delay of 0 or more, and a
/// worst case, every try taking `tryTimeout` with each wait twice the one before, within `maximumWait`.
/// Retries that would hold a link for minutes or hours are a mistake of the setup, found there rather
/// than by the person waiting on the link. One rule for the short links and the deferred link.
///
/// - Parameters:
///   - what: the retried request, for the message ("a short link").
///   - waiter: who waits meanwhile ("someone waits for a screen").
///   - defaults: the wrapper's defaults, in words ("1 try after 1 s").
func retriesProblem(
    _ retries: Int,
    delay: TimeInterval,
    tryTimeout: TimeInterval,
    maximumWait: TimeInterval,
    what: String,
    waiter: String,
    defaults: String
) -> WaypointError? {
    let given = "retries: \(retries), retryDelay: \(delay)"
    guard retries >= 0, delay >= 0, delay.isFinite else {
        return WaypointError(
            .invalidConfiguration,
            input: given,
            message: "The retries of \(what) are a count and its retry delay seconds, both 0 or more "
                + "(\(retries) after \(delay) s given); the default is \(defaults)."
        )
    }
    // In doubles, so a count like Int.max or a delay like 1e19 is refused rather than trapping.
    let tries = Double(retries) + 1
    let wait = tries * tryTimeout + delay * (pow(2, tries - 1) - 1)
    guard wait > maximumWait else { return nil }
    let shown = wait < 86_400 ? "\(Int(wait.rounded(.up))) s" : "more than a day"
    return WaypointError(
        .invalidConfiguration,
        input: given,
        message: "\(retries) more tries, the first after \(delay) s, may hold \(what) \(shown) when the service "
            + "does not answer, over the \(Int(maximumWait)) s \(waiter) (each try may take \(Int(tryTimeout)) s, "
            + "each wait doubles). Give fewer tries or a shorter first wait; the default is \(defaults)."
    )
}
