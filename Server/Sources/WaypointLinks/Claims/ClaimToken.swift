import Foundation

/// The token in a claim URL (`https://links.example.com/c/<token>`): which link a click was for, on
/// which platform and when, signed with the database's shared secret. Nothing is written when a
/// token is made — a landing page costs no database write — and the claim that spends it writes
/// its id once, which is what makes it single use.
///
/// Layout before base64url: a version byte (3), the platform byte, the minute it was issued (4
/// bytes, big-endian, since 1970), a 12-byte random id, the second its link was created (4 bytes),
/// the code's length (1 byte) and bytes, the visit's query passed on to the app (the rest, often
/// none), then the first 16 bytes of HMAC-SHA256 over all of that. A 10-character code and no
/// query give a 66-character token. A long link's token (version 4, ``LongLink``) has no link to
/// name: after the id comes its deep link, whole, then the signature. Version 2 tokens (the code
/// runs to the signature, no query) and version 1 tokens (no creation second either) still verify
/// for their day.
///
/// ```swift
/// let tokens = ClaimTokens(secret: store.sharedSecret, lifetime: 86_400)
/// let text = tokens.issue(for: link, platform: .iOS, at: .now)            // "AwE…"
/// try tokens.verify(text, at: .now).code                                   // "spring-sale"
/// ```
struct ClaimToken: Sendable, Hashable {
    /// Names the claim in the database: a second claim of the same token finds it there.
    let id: String
    let code: String
    let platform: ClaimPlatform
    let issuedAt: Date
    /// When the link it was issued for was created (whole seconds since 1970): a link deleted and
    /// made again with the same code is another link, and the token does not claim it. Nil for a
    /// token of the first version, issued before tokens named their link.
    let linkCreated: UInt32?
    /// The visit's query, passed on to the deep link the claim gives (``QueryPassthrough``).
    var query: String? = nil
    /// A long link's deep link, carried whole (``LongLink``); its ``code`` is empty.
    var deepLink: String? = nil

    /// Whether `link` is the one this token was issued for.
    func names(_ link: ShortLink) -> Bool {
        guard link.code == code else { return false }
        return linkCreated.map { $0 == ClaimTokens.seconds(link.createdAt) } ?? true
    }
}

/// Where the click that issued a claim came from: what installs are counted by.
public enum ClaimPlatform: String, Sendable, Hashable, CaseIterable, Codable {
    /// The landing page's "Get the app" button copied the claim URL.
    case iOS
    /// The Play Store redirect put the token in the install referrer.
    case android

    var byte: UInt8 {
        switch self {
        case .iOS: 1
        case .android: 2
        }
    }

    init?(byte: UInt8) {
        switch byte {
        case 1: self = .iOS
        case 2: self = .android
        default: return nil
        }
    }
}

/// Issues and checks ``ClaimToken``s with one key and one lifetime.
struct ClaimTokens: Sendable {
    private let key: [UInt8]
    /// Seconds a token can be claimed after it was issued.
    let lifetime: TimeInterval

    private static let version: UInt8 = 3
    private static let longLinkVersion: UInt8 = 4
    /// The longest token text verified: a code of 64 bytes and a passed-on query of
    /// ``QueryPassthrough/maxBytes`` fit, and a long link's deep link of ``LinkRules/maxURLLength``.
    static let maxLength = 4 * (headerLength + max(shortLinkPart, LinkRules.maxURLLength) + macLength + 2) / 3
    /// What follows the header in a short link's token, at most: creation second, code and query.
    private static let shortLinkPart = 4 + 1 + LinkRules.maxCodeLength + QueryPassthrough.maxBytes
    private static let macLength = 16
    private static let idLength = 12
    /// Version, platform, minute and id.
    private static let headerLength = 2 + 4 + idLength

    /// A link's creation as whole seconds since 1970, as the database keeps it.
    static func seconds(_ date: Date) -> UInt32 { UInt32(clamping: Int(date.timeIntervalSince1970.rounded(.down))) }

    init(secret: [UInt8], lifetime: TimeInterval) {
        self.key = SigningKey.derive("claim tokens", from: secret)
        self.lifetime = lifetime
    }

    func issue(for link: ShortLink, platform: ClaimPlatform, at date: Date, query: String? = nil) -> String {
        var bytes: [UInt8] = [link.isLongLink ? Self.longLinkVersion : Self.version, platform.byte]
        let minute = UInt32(clamping: Int((date.timeIntervalSince1970 / 60).rounded(.down)))
        bytes += withUnsafeBytes(of: minute.bigEndian) { Array($0) }
        var generator = SystemRandomNumberGenerator()
        bytes += (0..<Self.idLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // A long link is stored nowhere: its token carries it (LongLink bounds its length).
        if link.isLongLink { return Base64URL.encode(signed(bytes + Array(link.deepLink.utf8))) }
        bytes += withUnsafeBytes(of: Self.seconds(link.createdAt).bigEndian) { Array($0) }
        // A code has at most LinkRules.maxCodeLength (64) bytes: its length fits a byte.
        bytes.append(UInt8(truncatingIfNeeded: min(link.code.utf8.count, LinkRules.maxCodeLength)))
        bytes += Array(link.code.utf8.prefix(LinkRules.maxCodeLength))
        // A query too long to pass on was never passed (QueryPassthrough.split): none is cut here.
        if let query, query.utf8.count <= QueryPassthrough.maxBytes { bytes += Array(query.utf8) }
        return Base64URL.encode(signed(bytes))
    }

    private func signed(_ bytes: [UInt8]) -> [UInt8] { bytes + mac(bytes) }

    /// The token's contents once its signature and shape are checked, and its age at `date`
    /// (none when `date` is nil).
    ///
    /// - Throws: ``LinkServiceError`` `claimInvalid` for a token this service did not issue (or
    ///   one damaged on the way), `expired` for one older than ``lifetime``.
    func verify(_ text: String, at date: Date?) throws(LinkServiceError) -> ClaimToken {
        let invalid = LinkServiceError(
            .claimInvalid,
            "The claim token was not issued by this service or was cut short; claim the whole token from the claim URL."
        )
        guard text.utf8.count <= Self.maxLength, let bytes = Base64URL.decode(text),
            bytes.count > Self.headerLength + Self.macLength
        else { throw invalid }
        let signed = Array(bytes.dropLast(Self.macLength))
        guard SigningKey.constantTimeEqual(mac(signed), Array(bytes.suffix(Self.macLength))) else { throw invalid }
        // Version 3 gives the code's length and a query after it; version 2 names its link's
        // creation second after the id; version 1 went straight to the code.
        let version = signed[0]
        guard (1...Self.longLinkVersion).contains(version), let platform = ClaimPlatform(byte: signed[1]) else {
            throw invalid
        }
        let issuedAt = try issued(signed, at: date)
        let id = Hexadecimal.encode(signed[6..<Self.headerLength])
        if version == Self.longLinkVersion {
            guard let deepLink = String(validating: signed[Self.headerLength...], as: UTF8.self) else { throw invalid }
            return ClaimToken(
                id: id,
                code: "",
                platform: platform,
                issuedAt: issuedAt,
                linkCreated: nil,
                deepLink: deepLink
            )
        }
        let createdEnd = version == 1 ? Self.headerLength : Self.headerLength + 4
        guard signed.count > createdEnd else { throw invalid }
        var codeRange = createdEnd..<signed.count
        var query: String?
        if version == 3 {
            let length = Int(signed[createdEnd])
            codeRange = (createdEnd + 1)..<(createdEnd + 1 + length)
            guard length > 0, codeRange.upperBound <= signed.count else { throw invalid }
            if codeRange.upperBound < signed.count {
                guard let text = String(validating: signed[codeRange.upperBound...], as: UTF8.self) else {
                    throw invalid
                }
                query = text
            }
        }
        guard !codeRange.isEmpty, let code = String(validating: signed[codeRange], as: UTF8.self) else {
            throw invalid
        }
        let linkCreated: UInt32? =
            version == 1 ? nil : signed[Self.headerLength..<createdEnd].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return ClaimToken(
            id: id,
            code: code,
            platform: platform,
            issuedAt: issuedAt,
            linkCreated: linkCreated,
            query: query
        )
    }

    /// When the token was issued (its minute).
    ///
    /// - Throws: `expired` when it is older than ``lifetime`` at `date`.
    private func issued(_ signed: [UInt8], at date: Date?) throws(LinkServiceError) -> Date {
        let minute = signed[2..<6].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let issuedAt = Date(timeIntervalSince1970: Double(minute) * 60)
        if let date, date.timeIntervalSince(issuedAt) > lifetime {
            throw LinkServiceError(
                .expired,
                "The claim token expired: it is claimed within \(Int(lifetime / 3600)) hours of the click."
            )
        }
        return issuedAt
    }

    private func mac(_ bytes: [UInt8]) -> [UInt8] {
        Array(SigningKey.sign(bytes, with: key).prefix(Self.macLength))
    }

}
