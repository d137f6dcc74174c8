import Foundation

/// The key a store seals its pending links with (HMAC-SHA256), so a record edited by hand — a
/// custom-scheme link relabelled as a universal link to pass a route's `sources` — is refused on
/// restore and reported, never run. Keep it where the store's files are not: on Apple platforms in
/// the Keychain, as `Examples/ApartmentApp` does (`PendingLinkKey.keychain()` there).
///
/// ```swift
/// let key = try PendingLinkKey(bytes: keychainBytes)                   // 32 bytes or more
/// let store = FilePendingLinkStore(url: file, key: key)
/// ```
public struct PendingLinkKey: Sendable, Hashable {
    let bytes: [UInt8]

    /// A key from stored bytes: at least 32 of them.
    public init(bytes: [UInt8]) throws(WaypointError) {
        guard bytes.count >= 32 else {
            throw WaypointError(
                .invalidKey,
                message: "A pending-link key has at least 32 bytes; this one has \(bytes.count). Make one with "
                    + "PendingLinkKey.random() and keep its bytes."
            )
        }
        self.bytes = bytes
    }

    /// A new random key; keep its ``bytesToStore`` to seal and check across launches.
    public static func random() -> PendingLinkKey {
        var generator = SystemRandomNumberGenerator()
        return PendingLinkKey(unchecked: (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    private init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    /// The bytes to keep (in the Keychain) and give back to ``init(bytes:)`` on the next launch.
    public var bytesToStore: [UInt8] { bytes }

    /// The seal of `record`, in hexadecimal.
    func seal(_ record: [UInt8]) -> String {
        SHA256.hmac(key: bytes, message: record).map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]], as: UTF8.self)
        }.joined()
    }
}
