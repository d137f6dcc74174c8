import Foundation
import NIOConcurrencyHelpers

/// Links read for visits, kept for a few seconds, so a link shared widely is read from the database
/// once per lifetime rather than once per visit. Only links that exist are kept: a link created on
/// any instance redirects at once. The store tells it of every edit and delete (``LinkChange``):
/// this instance's at once, and on PostgreSQL the other instances' as their notification arrives;
/// the lifetime bounds how long a change can go unseen if a notification is lost.
///
/// ```swift
/// let cache = LinkCache(lifetime: 5)
/// let ticket = cache.ticket()                                 // before reading the link
/// cache.keep(link, at: now, ticket: ticket)
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
    struct State {
        var entries: [String: Entry] = [:]
        /// Moves on every `forget`: a read that began before an edit or delete is not kept.
        var generation = 0
    }

    private let state = NIOLockedValueBox(State())

    init(lifetime: TimeInterval, capacity: Int = 10_000) {
        self.lifetime = max(0, lifetime)
        self.capacity = max(1, capacity)
    }

    /// The kept link with this (normalized) code, if it is still fresh.
    func link(code: String, at now: Date) -> ShortLink? {
        guard lifetime > 0 else { return nil }
        return state.withLockedValue { state in
            guard let entry = state.entries[code] else { return nil }
            guard entry.until > now else {
                state.entries[code] = nil
                return nil
            }
            return entry.link
        }
    }

    /// Taken before reading a link from the store, and handed to ``keep(_:at:ticket:)``.
    func ticket() -> Int { state.withLockedValue { $0.generation } }

    /// Keeps a link read from the store, unless an edit or delete came since its ticket was taken.
    func keep(_ link: ShortLink, at now: Date, ticket: Int) {
        guard lifetime > 0 else { return }
        state.withLockedValue { state in
            guard state.generation == ticket else { return }
            if state.entries[link.code] == nil, state.entries.count >= capacity {
                state.entries = state.entries.filter { $0.value.until > now }
                if state.entries.count >= capacity { state.entries = [:] }
            }
            state.entries[link.code] = Entry(link: link, until: now.addingTimeInterval(lifetime))
        }
    }

    /// Drops a link that was edited or deleted (told after the change is committed), or every link
    /// when changes may have gone unheard.
    func forget(_ change: LinkChange) {
        state.withLockedValue { state in
            switch change {
            case .link(let code): state.entries[code] = nil
            case .unknown: state.entries = [:]
            }
            state.generation &+= 1
        }
    }

    var count: Int { state.withLockedValue { $0.entries.count } }
}
