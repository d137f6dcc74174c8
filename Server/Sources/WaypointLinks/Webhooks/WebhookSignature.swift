import Crypto
import Foundation

/// The `Waypoint-Signature` header of a delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256>` of
/// `"<t>.<raw body>"` under the webhook's secret (its UTF-8 bytes, `whsec_` included). A receiver
/// recomputes it, compares in constant time, and refuses a `t` more than a few minutes old, so a
/// recorded delivery cannot be replayed later.
///
/// ```swift
/// WebhookSignature.header(secret: "whsec_…", body: #"{"event":"link.created",…}"#, at: date)
/// // "t=1795521600,v1=5f0c…"
/// ```
enum WebhookSignature {
    static func header(secret: String, body: String, at date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        return "t=\(seconds),v1=\(signature(secret: secret, body: body, seconds: seconds))"
    }

    static func signature(secret: String, body: String, seconds: Int) -> String {
        let code = HMAC<SHA256>.authenticationCode(
            for: Data("\(seconds).\(body)".utf8),
            using: SymmetricKey(data: Data(secret.utf8))
        )
        return Hexadecimal.encode(Array(code))
    }
}
