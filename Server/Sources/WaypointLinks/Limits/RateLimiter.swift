import Foundation
import Metrics
import NIOConcurrencyHelpers

/// How often one client may do something: `perMinute` on average, up to `burst` at once.
///
/// ```swift
/// RateLimit(perMinute: 120, burst: 60)  // 2 a second, 60 in a row after a pause
/// RateLimit(perMinute: 120)              // burst 30: a quarter of a minute's worth
/// RateLimit.off                          // no limit
/// ```
public struct RateLimit: Sendable, Hashable {
    public var perMinute: Int
    public var burst: Int

    public init(perMinute: Int, burst: Int) {
        self.perMinute = max(0, perMinute)
        self.burst = max(1, burst)
    }

    /// A quarter of a minute's requests may come at once.
    public init(perMinute: Int) {
        self.init(perMinute: perMinute, burst: perMinute / 4)
    }

    /// No limit at all.
    public static let off = RateLimit(perMinute: 0, burst: 1)

    public var isOff: Bool { perMinute == 0 }

    /// Whole seconds until one more request is allowed after the bucket ran dry.
    var retryAfterSeconds: Int { isOff ? 0 : max(1, Int((60.0 / Double(perMinute)).rounded(.up))) }
}

/// Token buckets, one per client: each request spends a token, tokens come back at the limit's
/// rate. Memory is bounded: past `maxClients` buckets, the full ones (clients that have been quiet)
/// are dropped, and if most buckets are in use those quiet longest go too — a flood from more
/// addresses than that is beyond what a per-address limit can stop anyway.
///
/// ```swift
/// let limiter = RateLimiter(RateLimit(perMinute: 60, burst: 2), name: "admin requests")
/// limiter.spend("192.0.2.1", at: now)  // true
/// limiter.spend("192.0.2.1", at: now)  // true
/// limiter.spend("192.0.2.1", at: now)  // false: retry after a second
/// ```
final class RateLimiter: Sendable {
    struct Bucket {
        var tokens: Double
        var updated: Date
    }

    let limit: RateLimit
    /// What is limited, as the 429's message and the metric's `limit` label say it.
    let name: String
    let maxClients: Int
    private let buckets = NIOLockedValueBox<[String: Bucket]>([:])
    private let refusals: Counter

    init(_ limit: RateLimit, name: String, maxClients: Int = 100_000, metrics: ServiceMetrics = .none) {
        self.limit = limit
        self.name = name
        self.maxClients = maxClients
        self.refusals = metrics.rateLimited(name)
    }

    /// The 429 for a refused request.
    var refusal: LinkServiceError { .rateLimited(name, retryAfter: limit.retryAfterSeconds) }

    /// Spends one of `client`'s tokens; false when it has none left (and nothing is spent).
    func spend(_ client: String, at now: Date) -> Bool {
        guard !limit.isOff else { return true }
        let spent = buckets.withLockedValue { buckets in
            var bucket = refilled(buckets[client], at: now)
            guard bucket.tokens >= 1 else {
                buckets[client] = bucket
                return false
            }
            bucket.tokens -= 1
            if buckets[client] == nil, buckets.count >= maxClients { makeRoom(in: &buckets, at: now) }
            buckets[client] = bucket
            return true
        }
        if !spent { refusals.increment() }
        return spent
    }

    /// Gives back a token `spend` took, for a request that turned out not to count (a code that
    /// named a link). Never past the burst.
    func refund(_ client: String, at now: Date) {
        guard !limit.isOff else { return }
        buckets.withLockedValue { buckets in
            guard buckets[client] != nil else { return }
            var bucket = refilled(buckets[client], at: now)
            bucket.tokens = min(Double(limit.burst), bucket.tokens + 1)
            buckets[client] = bucket
        }
    }

    /// Whether a request from `client` is refused now, because it has no token left; spends nothing.
    func blocks(_ client: String, at now: Date) -> Bool {
        guard !limit.isOff else { return false }
        let exhausted = buckets.withLockedValue { buckets in
            guard let bucket = buckets[client] else { return false }
            return refilled(bucket, at: now).tokens < 1
        }
        if exhausted { refusals.increment() }
        return exhausted
    }

    /// How many clients have a bucket (for tests of the memory bound).
    var trackedClients: Int { buckets.withLockedValue { $0.count } }

    private func refilled(_ bucket: Bucket?, at now: Date) -> Bucket {
        let capacity = Double(limit.burst)
        guard let bucket else { return Bucket(tokens: capacity, updated: now) }
        // A clock that stepped back refills nothing rather than draining the bucket.
        let elapsed = max(0, now.timeIntervalSince(bucket.updated))
        let tokens = min(capacity, bucket.tokens + elapsed * Double(limit.perMinute) / 60)
        return Bucket(tokens: tokens, updated: max(now, bucket.updated))
    }

    /// Drops the quiet clients' buckets and, when that frees less than a quarter of the table, the
    /// buckets of the clients quiet longest among the rest, down to three quarters. Each scan so
    /// makes room for a quarter of the table at least, and a flood that keeps most buckets in use
    /// cannot make every new client scan all of them under the lock every request takes; the
    /// client spending now keeps its empty bucket.
    private func makeRoom(in buckets: inout [String: Bucket], at now: Date) {
        let capacity = Double(limit.burst)
        buckets = buckets.filter { refilled($0.value, at: now).tokens < capacity }
        let kept = maxClients * 3 / 4
        guard buckets.count > kept else { return }
        let quietest = buckets.sorted { $0.value.updated < $1.value.updated }.prefix(buckets.count - kept)
        for (client, _) in quietest { buckets[client] = nil }
    }
}
