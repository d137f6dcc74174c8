import Foundation

/// The admin page's sign-in. A session is a row in the database (``AdminSessionRecord``), named
/// by a random id; the cookie carries the id and a signature made with a key derived from the
/// database's shared secret, so every instance accepts it. A session ends when the person signs
/// out (on the server: the cookie no longer opens anything, wherever it was copied), after
/// ``idleTimeout`` without a request, ``lifetime`` after sign-in, or when its token is revoked.
///
/// Every form carries a CSRF token derived from the session id, which another site can neither read
/// nor forge. The sign-in form, before there is a session, carries one derived from a random
/// nonce in a cookie of its own (`wl_signin`), so it too differs for every visitor.
///
/// ```swift
/// let sessions = AdminSessions(secret: store.sharedSecret, store: store)
/// let cookie = try await sessions.start(tokenHash: hash, at: .now)    // "5f0c….9f8e…"
/// try await sessions.session(cookie, at: .now, tokens: tokens)         // its id, or nil
/// sessions.csrfToken(for: id)                                         // what every form must send back
/// ```
struct AdminSessions: Sendable {
    static let cookieName = "wl_admin"
    static let signInCookieName = "wl_signin"
    /// Eight hours: a working day, after which the token is asked for again.
    static let lifetime: TimeInterval = 8 * 3600
    /// Thirty minutes without a request end a session: a screen left signed in is not left open.
    static let idleTimeout: TimeInterval = 30 * 60
    /// A session's last request is written at most this often, not on every request.
    static let touchInterval: TimeInterval = 60

    let store: any LinkStore
    private let sessionKey: [UInt8]
    private let csrfKey: [UInt8]

    init(secret: [UInt8], store: any LinkStore) {
        self.store = store
        sessionKey = SigningKey.derive("admin sessions", from: secret)
        csrfKey = SigningKey.derive("admin csrf", from: secret)
    }

    /// Stores a new session for the token with `tokenHash`; the cookie's value.
    func start(tokenHash: [UInt8], at date: Date) async throws(StoreError) -> String {
        let id = Self.randomHex(16)
        try await store.addAdminSession(
            AdminSessionRecord(id: id, tokenHash: tokenHash, createdAt: date, lastSeenAt: date)
        )
        return id + "." + Hexadecimal.encode(SigningKey.sign(Array(id.utf8), with: sessionKey))
    }

    /// The id of the live session `cookie` names: signed by this service, stored, not ended, not
    /// idle past ``idleTimeout``, not older than ``lifetime``, for a token among `tokens`.
    func session(_ cookie: String, at date: Date, tokens: [APITokenRecord]) async throws(StoreError) -> String? {
        let parts = cookie.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 32, let mac = Hexadecimal.decode(String(parts[1])),
            SigningKey.constantTimeEqual(SigningKey.sign(Array(parts[0].utf8), with: sessionKey), mac)
        else { return nil }
        let id = String(parts[0])
        guard let record = try await store.adminSession(id: id), record.endedAt == nil,
            date.timeIntervalSince(record.createdAt) < Self.lifetime,
            date.timeIntervalSince(record.lastSeenAt) < Self.idleTimeout,
            tokens.contains(where: { SigningKey.constantTimeEqual($0.secretHash, record.tokenHash) })
        else { return nil }
        if date.timeIntervalSince(record.lastSeenAt) >= Self.touchInterval {
            try await store.touchAdminSession(id: id, at: date)
        }
        return id
    }

    /// Ends the session `cookie` names, on the server: the cookie opens nothing after.
    func end(_ cookie: String, at date: Date) async throws(StoreError) {
        guard let id = cookie.split(separator: ".").first else { return }
        try await store.endAdminSession(id: String(id), at: date)
    }

    /// The CSRF token of a session's forms.
    func csrfToken(for sessionID: String) -> String { mac("session." + sessionID) }

    func checkCSRF(_ presented: String?, session sessionID: String) -> Bool {
        check(presented, against: csrfToken(for: sessionID))
    }

    /// The sign-in form's CSRF token, for the nonce in the visitor's `wl_signin` cookie.
    func signInToken(nonce: String) -> String { mac("sign-in." + nonce) }

    func checkSignIn(_ presented: String?, nonce: String?) -> Bool {
        guard let nonce, nonce.utf8.count == 32 else { return false }
        return check(presented, against: signInToken(nonce: nonce))
    }

    private func mac(_ text: String) -> String {
        Hexadecimal.encode(SigningKey.sign(Array(text.utf8), with: csrfKey).prefix(16))
    }

    private func check(_ presented: String?, against expected: String) -> Bool {
        guard let presented, let bytes = Hexadecimal.decode(presented), let wanted = Hexadecimal.decode(expected)
        else { return false }
        return SigningKey.constantTimeEqual(bytes, wanted)
    }

    static func randomHex(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return Hexadecimal.encode((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The `Set-Cookie` value: only over HTTPS, never to scripts, never sent by another site.
    static func setCookie(_ value: String) -> String {
        "\(cookieName)=\(value); Path=/admin; Max-Age=\(Int(lifetime)); HttpOnly; Secure; SameSite=Strict"
    }

    static let clearCookie = "\(cookieName)=; Path=/admin; Max-Age=0; HttpOnly; Secure; SameSite=Strict"

    /// The sign-in nonce's cookie: an hour to fill in the form.
    static func setSignInCookie(_ nonce: String) -> String {
        "\(signInCookieName)=\(nonce); Path=/admin; Max-Age=3600; HttpOnly; Secure; SameSite=Strict"
    }

    static let clearSignInCookie =
        "\(signInCookieName)=; Path=/admin; Max-Age=0; HttpOnly; Secure; SameSite=Strict"

    /// The value of the cookie `name` in a `Cookie` header, if any.
    static func cookie(_ name: String = cookieName, in header: String?) -> String? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let trimmed = pair.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix(name + "=") { return String(trimmed.dropFirst(name.count + 1)) }
        }
        return nil
    }
}

/// A signed-in admin session as stored: what it was opened with, when, when it was last used, and
/// when it was ended by signing out.
public struct AdminSessionRecord: Sendable, Hashable {
    public var id: String
    /// The SHA-256 of the API token signed in with: revoking the token ends the session.
    public var tokenHash: [UInt8]
    public var createdAt: Date
    public var lastSeenAt: Date
    public var endedAt: Date?

    public init(id: String, tokenHash: [UInt8], createdAt: Date, lastSeenAt: Date, endedAt: Date? = nil) {
        self.id = id
        self.tokenHash = tokenHash
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.endedAt = endedAt
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
