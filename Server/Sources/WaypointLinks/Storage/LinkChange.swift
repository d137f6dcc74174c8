import NIOConcurrencyHelpers

/// An edit or delete of a stored link, told to what keeps links in memory (the visits' cache). A
/// store tells of its own changes as soon as they are committed, and PostgreSQL of those other
/// instances made too (``PostgresLinkStore``).
///
/// ```swift
/// store.observeChanges { change in cache.forget(change) }
/// try await store.delete(code: "spring")  // the observer hears .link(code: "spring")
/// ```
public enum LinkChange: Sendable, Hashable {
    /// The link with this code was edited or deleted.
    case link(code: String)
    /// Changes may have gone unheard (the connection that hears them was lost): forget every link.
    case unknown
}

/// The observers one store tells of changes.
final class LinkChangeObservers: Sendable {
    private let observers = NIOLockedValueBox<[@Sendable (LinkChange) -> Void]>([])

    func add(_ observer: @escaping @Sendable (LinkChange) -> Void) {
        observers.withLockedValue { $0.append(observer) }
    }

    func tell(_ change: LinkChange) {
        for observer in observers.withLockedValue({ $0 }) { observer(change) }
    }
}
