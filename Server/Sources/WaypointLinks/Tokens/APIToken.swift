import Crypto
import Foundation

/// Admin API tokens: a secret shown once when created (`waypoint-links token create`), stored only
/// as its SHA-256, and checked by comparing hashes in constant time.
///
/// A token is 32 random bytes, so a plain SHA-256 suffices: there is no dictionary to try, and
/// a slow password hash would only slow every admin request.
///
/// ```swift
/// let secret = APIToken.makeSecret()                     // "wl_Qm9y…" (46 characters)
/// APIToken.matches(secret, anyOf: [APIToken.hash(secret)])  // true
/// APIToken.matching(secret, among: try await store.tokens())  // its record, or nil
/// ```
public enum APIToken {
    /// Marks a Waypoint Links token, so a secret scanner or a person can tell what leaked.
    public static let prefix = "wl_"

    public static func makeSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return prefix + Base64URL.encode(bytes)
    }

    public static func hash(_ secret: String) -> [UInt8] { Array(SHA256.hash(data: Data(secret.utf8))) }

    /// Whether `secret` hashes to one of `hashes`. Every hash is compared in full, whatever
    /// matches, so the time taken says nothing about how close a guess was.
    public static func matches(_ secret: String, anyOf hashes: [[UInt8]]) -> Bool {
        let presented = hash(secret)
        var found: UInt8 = 0
        for stored in hashes { found |= SigningKey.constantTimeEqual(presented, stored) ? 1 : 0 }
        return found == 1
    }

    /// The stored token `secret` is, compared as ``matches(_:anyOf:)`` does: every hash in full.
    public static func matching(_ secret: String, among tokens: [APITokenRecord]) -> APITokenRecord? {
        let presented = hash(secret)
        var match: APITokenRecord?
        for token in tokens where SigningKey.constantTimeEqual(presented, token.secretHash) { match = token }
        return match
    }
}
