import Crypto
import Foundation

/// Keys for one use each, derived from the database's shared secret (``LinkStore/sharedSecret``):
/// a claim token can never pass as an admin session, or the other way round.
///
/// ```swift
/// let key = SigningKey.derive("claim tokens", from: store.sharedSecret)
/// SigningKey.constantTimeEqual([1, 2], [1, 2])  // true
/// ```
enum SigningKey {
    /// The key's bytes: `SymmetricKey` is not `Sendable`, so holders keep bytes and sign with ``sign(_:with:)``.
    static func derive(_ use: String, from secret: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Array(use.utf8), using: SymmetricKey(data: secret)))
    }

    /// HMAC-SHA256 of `bytes` under `key`.
    static func sign(_ bytes: some DataProtocol, with key: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: bytes, using: SymmetricKey(data: key)))
    }

    /// Compares every byte whatever differs first, so the time taken tells nothing about a guess.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
