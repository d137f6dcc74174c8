import Foundation

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
