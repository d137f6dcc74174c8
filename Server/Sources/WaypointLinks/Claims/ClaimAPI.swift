import Foundation
import HTTPTypes
import Hummingbird

/// Deferred links: `POST /api/claims` gives the app the link a click was for, once, and
/// `GET /c/{token}` sends a person who opens a claim URL in a browser to the link's page.
///
/// The token reaches the app deterministically — copied by the landing page's "Get the app" tap on
/// iOS, carried in the Play Store's install referrer on Android — never by matching an address and
/// a user agent (fingerprinting, which Apple's Developer Program License Agreement forbids).
struct ClaimAPI: Sendable {
    let tokens: ClaimTokens
    let store: any LinkStore
    let rules: LinkRules
    let now: @Sendable () -> Date
    /// Tells the webhooks of each claim, once it is stored.
    var events = WebhookEvents.none

    /// `{"token": "AwE…"}`: the token alone, the whole claim URL the pasteboard held, or the whole
    /// install referrer.
    struct Input: Decodable {
        let token: String

        enum CodingKeys: String, CodingKey, CaseIterable { case token }

        init(from decoder: any Decoder) throws {
            try AnyKey.refuseUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.stringValue), of: "a claim")
            token = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .token)
        }
    }

    /// What the app hands its dispatcher: the deep link, with the code and route it came from.
    struct Claimed: Encodable {
        let code: String
        let deepLink: String
        let route: String
        let platform: ClaimPlatform
    }

    /// `POST /api/claims`.
    ///
    /// - Throws: ``LinkServiceError`` `claimInvalid` (404) for a token the service did not issue,
    ///   `expired` (410) for a token or link past its time, `notFound` (404) when the link was
    ///   deleted, `alreadyClaimed` (409) for the second claim of a token.
    func claim(_ request: Request) async throws -> Response {
        let input = try await JSONBody.decode(Input.self, from: request)
        let date = now()
        let token = try tokens.verify(Self.tokenText(input.token), at: date)
        if let deepLink = token.deepLink { return try await claimLongLink(token, deepLink: deepLink, at: date) }
        // A link deleted and made again with the same code is another link: its old tokens claim nothing.
        guard let link = try await store.link(code: token.code), token.names(link) else {
            throw LinkServiceError(.notFound, "The link '\(token.code)' this token was for has been deleted.")
        }
        guard !link.isExpired(at: date) else {
            throw LinkServiceError(.expired, "The link '\(link.code)' this token was for has expired.")
        }
        let claim = ClaimRecord(id: token.id, code: link.code, platform: token.platform, claimedAt: date)
        guard try await store.addClaim(claim) else { throw Self.claimedBefore }
        await events.emit(
            .linkClaimed,
            WebhookEvents.LinkClaimed(code: link.code, platform: token.platform, claimedAt: date)
        )
        return JSONBody.response(
            Claimed(
                code: link.code,
                // The query of the visit that issued the token, when the link still passes queries.
                deepLink: rules.deepLink(of: link, passing: token.query),
                route: link.route,
                platform: token.platform
            )
        )
    }

    static let claimedBefore = LinkServiceError(
        .alreadyClaimed,
        "This token was claimed before; each click's token gives its link once."
    )

    /// A long link's claim (``LongLink``): its deep link is in the token, checked against today's
    /// manifest. No link is stored, so no installs are counted by code and no webhook is told.
    private func claimLongLink(_ token: ClaimToken, deepLink: String, at date: Date) async throws -> Response {
        let route: String
        do {
            route = try rules.route(for: deepLink)
        } catch {
            throw LinkServiceError(
                .notFound,
                "The long link this token was for leads to no route of the app's manifest any more: \(error.message)"
            )
        }
        let claim = ClaimRecord(id: token.id, code: "", platform: token.platform, claimedAt: date)
        guard try await store.addClaim(claim) else { throw Self.claimedBefore }
        return JSONBody.response(Claimed(code: "", deepLink: deepLink, route: route, platform: token.platform))
    }

    /// `GET /c/{token}`: a claim URL opened in a browser goes to its link's page, unclaimed; an
    /// old token still shows the link, so this checks the signature and not the age. A long link's
    /// has no page: it goes to the deep link, as the page's "Open in the app" would, while the
    /// manifest still has a route for it.
    func open(token text: String) throws -> Response {
        let token = try tokens.verify(text, at: nil)
        if let deepLink = token.deepLink, (try? rules.route(for: deepLink)) == nil {
            throw LinkServiceError(
                .notFound,
                "The long link this claim URL was for leads to no route of the app any more."
            )
        }
        return Response(
            status: .found,
            headers: [.location: token.deepLink ?? "/\(token.code)", .cacheControl: "no-store"]
        )
    }

    /// The token in `text`: the token alone, the claim URL (`https://links.example.com/c/AwE…`), the
    /// whole Play install referrer (``PlayReferrer``), or what an Android app cut from that referrer
    /// after its first `=` (`AwE…&utm_source=news`), as one written before the referrer had a
    /// campaign does. A token never holds `&` or `/`, and a claim URL no `&`: what follows the
    /// first `&` is a campaign, whatever it holds (`utm_content=a/c/b`).
    static func tokenText(_ text: String) -> String {
        if let token = PlayReferrer.token(in: text) { return String(token) }
        let head = text.prefix { $0 != "&" }
        guard let range = head.range(of: "/c/", options: .backwards) else { return String(head) }
        return String(head[range.upperBound...])
    }
}
