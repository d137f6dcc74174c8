import Foundation
import NIOConcurrencyHelpers

/// Links read for visits, kept for a few seconds, so a link shared widely is read from the database
/// once per lifetime rather than once per visit. Only links that exist are kept: a link created on
/// any instance redirects at once. An edit or delete made through this instance reaches its
/// redirects at once too; one made through another instance, within the lifetime.
///
/// ```swift
/// let cache = LinkCache(lifetime: 5)
/// cache.keep(link, at: now)
/// cache.link(code: link.code, at: now)                        // link
/// cache.link(code: link.code, at: now.addingTimeInterval(6))  // nil: read it again
/// ```
final class LinkCache: Sendable {
    struct Entry {
        let link: ShortLink
        let until: Date
    }

    /// Seconds a link is kept; 0 keeps none.
    let lifetime: TimeInterval
    /// The most links kept; past it, the expired ones go, and if none has expired, all of them.
    let capacity: Int
    private let entries = NIOLockedValueBox<[String: Entry]>([:])

    init(lifetime: TimeInterval, capacity: Int = 10_000) {
        self.lifetime = max(0, lifetime)
        self.capacity = max(1, capacity)
    }

    /// The kept link with this (normalized) code, if it is still fresh.
    func link(code: String, at now: Date) -> ShortLink? {
        guard lifetime > 0 else { return nil }
        return entries.withLockedValue { entries in
            guard let entry = entries[code] else { return nil }
            guard entry.until > now else {
                entries[code] = nil
                return nil
            }
            return entry.link
        }
    }

    func keep(_ link: ShortLink, at now: Date) {
        guard lifetime > 0 else { return }
        entries.withLockedValue { entries in
            if entries[link.code] == nil, entries.count >= capacity {
                entries = entries.filter { $0.value.until > now }
                if entries.count >= capacity { entries = [:] }
            }
            entries[link.code] = Entry(link: link, until: now.addingTimeInterval(lifetime))
        }
    }

    /// Drops a link that was edited or deleted.
    func forget(code: String) {
        _ = entries.withLockedValue { $0.removeValue(forKey: code) }
    }

    var count: Int { entries.withLockedValue { $0.count } }
}
