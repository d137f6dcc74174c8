import Foundation

/// A link received but not yet finished, as it is kept across process death: only what running it
/// again needs. A notification's payload is not kept (the link already carries what routing reads
/// from it), so a store never holds a whole push, its alert text included.
///
/// ```swift
/// PendingLink(id: UUID(), link: "myapp://messages/7", source: .notification,
///             identity: "notification:push-1:com.apple.UNNotificationDefaultActionIdentifier:9ad3e5c1f0b27e44",
///             receivedAt: Date())
/// ```
public struct PendingLink: Sendable, Hashable, Codable {
    /// The dispatcher's identifier for the link, the one ``LinkDispatcher/receive(_:)`` returned.
    public let id: UUID
    /// The link's text.
    public let link: String
    /// How the link arrived, which routes' `sources` are checked against when it runs again.
    public let source: LinkSource
    /// The delivery's identity, for deduplication.
    public let identity: String
    /// When it was received, for ``DispatcherConfiguration/maximumPendingAge`` across process death.
    public let receivedAt: Date
    /// The scene it waits for: the one it arrived through, until that scene disconnects. A
    /// restored window (same `persistentIdentifier`) gets it back.
    public var scene: SceneID?
    /// The content it wants to be shown by (a notification's `target-content-id`).
    public let targetContentIdentifier: String?
    /// When the barrier check the link waits on gives up, where that is later than
    /// ``DispatcherConfiguration/maximumPendingAge`` after receipt (a login given an hour): the
    /// link is kept until then, across process death too, so a login that outlives the process
    /// still leads on to it. Absent from links written before it, which read as `nil`.
    package var checkDeadline: Date?

    /// A pending link as the dispatcher keeps it; see the example above.
    public init(
        id: UUID,
        link: String,
        source: LinkSource,
        identity: String,
        receivedAt: Date,
        scene: SceneID? = nil,
        targetContentIdentifier: String? = nil
    ) {
        self.id = id
        self.link = link
        self.source = source
        self.identity = identity
        self.receivedAt = receivedAt
        self.scene = scene
        self.targetContentIdentifier = targetContentIdentifier
    }
}

/// Where a ``LinkDispatcher`` keeps links between receipt and completion, so a link held before
/// the app was ready survives the process being killed: each link is put on receipt and removed on
/// completion, one change at a time.
///
/// Waypoint ships ``FilePendingLinkStore`` (a log, each change O(1), sealed with a
/// ``PendingLinkKey``), ``UserDefaultsPendingLinkStore`` and ``InMemoryPendingLinkStore``. A store
/// of the app's own needs only ``load()`` and ``save(_:)``; ``put(_:)`` and ``remove(_:)`` then
/// rewrite every link, which is fine for a few.
///
/// ```swift
/// let store: any PendingLinkStore = InMemoryPendingLinkStore()
/// try store.put(link)
/// try store.load().map(\.link)   // ["myapp://messages/7"]
/// try store.remove(link.id)
/// try store.load()               // []
/// ```
public protocol PendingLinkStore: Sendable {
    /// Every pending link, oldest first. A damaged store throws ``WaypointError`` after
    /// setting the damaged data aside, so the next load starts clean.
    func load() throws -> [PendingLink]
    /// Replaces the pending links.
    func save(_ links: [PendingLink]) throws
    /// Keeps `link`, in place of the one with its id if there is one.
    func put(_ link: PendingLink) throws
    /// Forgets the link with `id`; nothing when there is none.
    func remove(_ id: UUID) throws
    /// What the dispatcher restores at launch: the links, and what was refused on the way (a record
    /// whose seal does not match, a line that cannot be read), each reported as a store problem.
    func restore() throws -> StoredPendingLinks
}

extension PendingLinkStore {
    /// Loads every link, puts `link` in place of the one with its id (or last), and saves them all.
    public func put(_ link: PendingLink) throws {
        var links = try load()
        if let index = links.firstIndex(where: { $0.id == link.id }) {
            links[index] = link
        } else {
            links.append(link)
        }
        try save(links)
    }

    /// Loads every link and saves them again without the one with `id`; writes nothing when there is none.
    public func remove(_ id: UUID) throws {
        let links = try load()
        let kept = links.filter { $0.id != id }
        if kept.count != links.count { try save(kept) }
    }

    /// The loaded links, with nothing refused: a store that refuses records overrides this.
    public func restore() throws -> StoredPendingLinks { StoredPendingLinks(links: try load(), refused: []) }
}

/// The links a store restores, and the records it refused, each with a reason for people.
///
/// ```swift
/// let restored = try FilePendingLinkStore(url: file, key: key).restore()
/// restored.refused   // [] unless a line was edited, cut short or copied back
/// ```
public struct StoredPendingLinks: Sendable, Hashable {
    /// The links to run again, oldest first.
    public var links: [PendingLink]
    /// What was not restored, a sentence each, reported as ``DispatchEvent/Kind/storeProblem(message:)``.
    public var refused: [String]

    /// What a store restored: `StoredPendingLinks(links: [link]).refused` is `[]`.
    public init(links: [PendingLink], refused: [String] = []) {
        self.links = links
        self.refused = refused
    }
}

/// A store in memory: links survive a dispatcher, not the process. For tests, and apps that do not
/// want persistence.
///
/// ```swift
/// let dispatcher = try LinkDispatcher<Screen>(routes: routes, policy: policy, store: InMemoryPendingLinkStore())
/// ```
public final class InMemoryPendingLinkStore: PendingLinkStore, Sendable {
    private let links: Locked<[PendingLink]>

    /// A store that starts with `links`: `try InMemoryPendingLinkStore([link]).load().count` is `1`.
    public init(_ links: [PendingLink] = []) { self.links = Locked(links) }

    /// The links, in the order they were kept.
    public func load() throws -> [PendingLink] { links.withLock { $0 } }

    /// Replaces the links.
    public func save(_ links: [PendingLink]) throws { self.links.withLock { $0 = links } }
}
