import Foundation

/// A link received but not yet finished, as it is kept across process death: only what running it
/// again needs. A notification's payload is not kept (the link already carries what routing reads
/// from it), so a store never holds a whole push, its alert text included.
///
/// ```swift
/// PendingLink(id: UUID(), link: "myapp://messages/7", source: .notification,
///             identity: "notification:push-1:com.apple.UNNotificationDefaultActionIdentifier", receivedAt: Date())
/// ```
public struct PendingLink: Sendable, Hashable, Codable {
    public let id: UUID
    /// The link's text.
    public let link: String
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
public final class InMemoryPendingLinkStore: PendingLinkStore, Sendable {
    private let links: Locked<[PendingLink]>

    public init(_ links: [PendingLink] = []) { self.links = Locked(links) }

    public func load() throws -> [PendingLink] { links.withLock { $0 } }

    public func save(_ links: [PendingLink]) throws { self.links.withLock { $0 = links } }
}
