import Foundation

/// An admin API token as stored: its name, when it was made and last used, and the SHA-256 of its
/// secret (the secret itself is never stored). `waypoint-links token list` prints all but the hash.
public struct APITokenRecord: Sendable, Hashable {
    public var name: String
    public var secretHash: [UInt8]
    public var createdAt: Date
    /// When a request last presented it, to the minute; nil when none has.
    public var lastUsedAt: Date?

    public init(name: String, secretHash: [UInt8], createdAt: Date, lastUsedAt: Date? = nil) {
        self.name = name
        self.secretHash = secretHash
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}
