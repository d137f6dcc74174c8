import Foundation

/// A link received but not yet finished, as it is kept across process death.
public struct PendingLink: Sendable, Hashable, Codable {
    public let id: UUID
    /// The link's text.
    public let link: String
    public let source: LinkSource
    public let payload: PayloadValue?
    /// The delivery's identity, for deduplication.
    public let identity: String
    public let receivedAt: Date

    public init(id: UUID, link: String, source: LinkSource, payload: PayloadValue?, identity: String, receivedAt: Date)
    {
        self.id = id
        self.link = link
        self.source = source
        self.payload = payload
        self.identity = identity
        self.receivedAt = receivedAt
    }
}

/// Where a ``LinkDispatcher`` keeps links between receipt and completion, so a link held before
/// the app was ready survives the process being killed. Written on receipt, cleared on completion.
///
/// Waypoint ships ``FilePendingLinkStore`` and ``InMemoryPendingLinkStore``; the UIKit adapter adds
/// one over `UserDefaults`.
public protocol PendingLinkStore: Sendable {
    /// Every pending link, oldest first. A damaged store throws ``PendingLinkStoreError`` after
    /// setting the damaged data aside, so the next load starts clean.
    func load() throws -> [PendingLink]
    /// Replaces the pending links.
    func save(_ links: [PendingLink]) throws
}

/// A store that could not be read or written.
public struct PendingLinkStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong and where the damaged data went, for people.
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// A store in memory: links survive a dispatcher, not the process. For tests, and apps that do not
/// want persistence.
public final class InMemoryPendingLinkStore: PendingLinkStore, @unchecked Sendable {
    // The lock guards `links`.
    private let lock = NSLock()
    private var links: [PendingLink] = []

    public init(_ links: [PendingLink] = []) { self.links = links }

    public func load() throws -> [PendingLink] {
        lock.lock()
        defer { lock.unlock() }
        return links
    }

    public func save(_ links: [PendingLink]) throws {
        lock.lock()
        self.links = links
        lock.unlock()
    }
}
