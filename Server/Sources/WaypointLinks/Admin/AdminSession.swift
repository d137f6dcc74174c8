import Foundation

/// The admin page's sign-in: a cookie signed with a key derived from the database's shared secret,
/// so every instance accepts it, holding when it ends and which API token signed in (a prefix of
/// its hash, so a token removed from the database ends its sessions too). Forms carry a CSRF token
/// derived from the cookie, which another site can neither read nor forge.
///
/// ```swift
/// let sessions = AdminSessions(secret: store.sharedSecret)
/// let cookie = sessions.issue(tokenHash: hash, at: .now)        // "1795525200.0a1b….9f8e…"
/// sessions.verify(cookie, at: .now, tokenHashes: hashes)        // true
/// sessions.csrfToken(for: cookie)                               // what every form must send back
/// ```
struct AdminSessions: Sendable {
    static let cookieName = "wl_admin"
    /// Eight hours: a working day, after which the token is asked for again.
    static let lifetime: TimeInterval = 8 * 3600

    private let sessionKey: [UInt8]
    private let csrfKey: [UInt8]

    init(secret: [UInt8]) {
        sessionKey = SigningKey.derive("admin sessions", from: secret)
        csrfKey = SigningKey.derive("admin csrf", from: secret)
    }

    func issue(tokenHash: [UInt8], at date: Date) -> String {
        let payload =
            "\(Int(date.addingTimeInterval(Self.lifetime).timeIntervalSince1970)).\(Hexadecimal.encode(tokenHash.prefix(8)))"
        return payload + "." + Hexadecimal.encode(SigningKey.sign(Array(payload.utf8), with: sessionKey))
    }

    /// Whether `cookie` is one this service signed, not past its end, for a token still stored.
    func verify(_ cookie: String, at date: Date, tokenHashes: [[UInt8]]) -> Bool {
        let parts = cookie.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let end = Int(parts[0]), let mac = Hexadecimal.decode(String(parts[2])) else {
            return false
        }
        let payload = "\(parts[0]).\(parts[1])"
        guard SigningKey.constantTimeEqual(SigningKey.sign(Array(payload.utf8), with: sessionKey), mac),
            Double(end) > date.timeIntervalSince1970
        else { return false }
        return tokenHashes.contains { Hexadecimal.encode($0.prefix(8)) == parts[1] }
    }

    func csrfToken(for cookie: String) -> String {
        Hexadecimal.encode(SigningKey.sign(Array(cookie.utf8), with: csrfKey).prefix(16))
    }

    func checkCSRF(_ presented: String?, cookie: String) -> Bool {
        guard let presented, let bytes = Hexadecimal.decode(presented),
            let expected = Hexadecimal.decode(csrfToken(for: cookie))
        else { return false }
        return SigningKey.constantTimeEqual(bytes, expected)
    }

    /// The `Set-Cookie` value: only over HTTPS, never to scripts, never sent by another site.
    static func setCookie(_ value: String) -> String {
        "\(cookieName)=\(value); Path=/admin; Max-Age=\(Int(lifetime)); HttpOnly; Secure; SameSite=Strict"
    }

    static let clearCookie = "\(cookieName)=; Path=/admin; Max-Age=0; HttpOnly; Secure; SameSite=Strict"

    /// The session cookie's value in a `Cookie` header, if any.
    static func cookie(in header: String?) -> String? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let trimmed = pair.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix(cookieName + "=") { return String(trimmed.dropFirst(cookieName.count + 1)) }
        }
        return nil
    }
}

/// An `application/x-www-form-urlencoded` body, as the admin page's forms send it.
///
/// ```swift
/// FormBody("deepLink=readapp%3A%2F%2Fbooks%2F1&title=Spring+sale")["title"]  // "Spring sale"
/// ```
struct FormBody: Sendable {
    private var fields: [String: String] = [:]

    init(_ text: String) {
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode: (Substring) -> String = {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            guard let name = parts.first.map(decode) else { continue }
            // The first value of a repeated field counts, as a browser sends one per field.
            if fields[name] == nil { fields[name] = parts.count > 1 ? decode(parts[1]) : "" }
        }
    }

    subscript(_ name: String) -> String? { fields[name] }

    /// The field, trimmed, or nil when absent or blank: a blank field clears an optional value.
    func value(_ name: String) -> String? {
        guard let text = fields[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            return nil
        }
        return text
    }
}
