import Foundation

/// What `GET /{code}` answers, decided from the link, who asked and when; kept apart from HTTP so
/// every branch is tested without a server.
///
/// Reached only when the app did not open: with the app installed, iOS and Android open it for the
/// short link's own URL (its host is an associated domain) and the service never sees the tap.
///
/// ```swift
/// let answer = VisitAnswer.for(link, client: .android, now: .now, settings: settings)
/// answer.outcome   // .store
/// answer.location  // "https://play.google.com/store/apps/details?id=com.example.reader&referrer=…"
/// ```
struct VisitAnswer: Sendable, Hashable {
    var outcome: VisitOutcome
    var status: Int
    /// For a redirect (302).
    var location: String?
    /// For a page.
    var html: String?
    /// Why some of the visit's query was not passed on where this answer sends the visitor
    /// (``QueryPassthrough/LeftBehind``); nil when all of it was, or the answer passes no query on.
    var leftBehind: QueryPassthrough.LeftBehind? = nil

    /// What the service knows besides the link: the Android package and App Store id to fall
    /// back on, and the address short links are shared under.
    struct Settings: Sendable {
        var appStoreID: String?
        /// The team's App Store Connect provider token: App Store links then name the campaign.
        var appStoreProviderToken: String?
        var playPackage: String?
        /// The short-link domains: a link's URL, and its claim URLs, are on its own.
        var domains: LinkDomains
        /// What a deep link with a visit's query passed on must still resolve to.
        var rules: LinkRules
        var pages: Pages
        /// Signs the claim token an iOS "Get the app" tap copies and the Play Store referrer carries.
        var claims: ClaimTokens
    }

    /// The answer for a visit of `code`. `query` is the visit's (`utm_source=news`), passed on
    /// when the link passes queries (``QueryPassthrough``). `mayIssueClaim` is asked only when the
    /// answer would carry a claim token, and says no once the client has had its share
    /// (``LinkService/Configuration/claimTokenLimit``): the page and the store redirect then carry none.
    static func `for`(
        code: String,
        link: ShortLink?,
        client: ClientKind,
        query: String? = nil,
        now: Date,
        settings: Settings,
        mayIssueClaim: () -> Bool = { true }
    ) -> VisitAnswer {
        guard let link else {
            return VisitAnswer(
                outcome: .notFound,
                status: 404,
                html: settings.pages.missing(code: code, expired: false)
            )
        }
        if link.isExpired(at: now) {
            return VisitAnswer(outcome: .expired, status: 410, html: settings.pages.missing(code: code, expired: true))
        }
        let (passed, leftBehind) = QueryPassthrough.split(query, by: link)
        func onward(_ target: String) -> String { QueryPassthrough.merge(passed, into: target) }
        let title = link.preview?.title ?? "Open in the app"
        // What reaches the app: the deep link with the query, checked against the link's route, and
        // the stores' campaign read from it. Worked out only where an answer uses it, so a redirect
        // to a web target, the busiest answer, does no route match.
        lazy var reachingApp = settings.rules.passing(query, to: link)
        func storeURL() -> String? {
            (link.fallbacks.appStoreID ?? settings.appStoreID).map {
                StoreCampaign(of: reachingApp.deepLink).appStoreURL(
                    id: $0,
                    providerToken: settings.appStoreProviderToken
                )
            }
        }
        switch client {
        case .previewCrawler:
            let page = Pages.Preview(
                title: title,
                description: link.preview?.description,
                imageURL: link.preview?.imageURL,
                // A long link's page is the long link itself: a crawler fetches og:url again.
                pageURL: link.isLongLink
                    ? settings.domains.baseURL(of: link) + "/?" + (query ?? "") : settings.domains.url(of: link),
                continueURL: link.fallbacks.web ?? storeURL()
            )
            return VisitAnswer(outcome: .preview, status: 200, html: settings.pages.preview(page))
        case .android:
            if let target = link.fallbacks.android {
                return VisitAnswer(
                    outcome: .webFallback,
                    status: 302,
                    location: onward(target),
                    leftBehind: leftBehind
                )
            }
            if let package = link.fallbacks.playPackage ?? settings.playPackage {
                // The store takes no query of ours: the referrer carries the campaign to Google
                // Play's reports, and the claim token carries the passed query to the app.
                let token =
                    mayIssueClaim() ? settings.claims.issue(for: link, platform: .android, at: now, query: passed) : nil
                return VisitAnswer(
                    outcome: .store,
                    status: 302,
                    location: playStoreURL(
                        package: package,
                        referrer: PlayReferrer.text(StoreCampaign(of: reachingApp.deepLink), claim: token)
                    ),
                    leftBehind: reachingApp.appLeftBehind
                )
            }
        case .desktop:
            if let target = link.fallbacks.desktop ?? link.fallbacks.web {
                return VisitAnswer(
                    outcome: .webFallback,
                    status: 302,
                    location: onward(target),
                    leftBehind: leftBehind
                )
            }
        case .iOS:
            break
        }
        // iOS, and anyone with nowhere better to go: a page that opens the app or offers the store
        // (or the link's own iPhone page instead of the store).
        let iosPage = link.fallbacks.ios.map(onward)
        let storeURL = storeURL()
        let page = Pages.Landing(
            title: title,
            description: link.preview?.description,
            openURL: reachingApp.deepLink,
            storeURL: iosPage ?? storeURL,
            // Only an iPhone or iPad can install from the App Store button and open the app after;
            // a page of the link's own installs nothing to claim for.
            claimURL: iosPage == nil && storeURL != nil && client == .iOS && mayIssueClaim()
                ? settings.domains.baseURL(of: link) + "/c/"
                    + settings.claims.issue(for: link, platform: .iOS, at: now, query: passed)
                : nil,
            webURL: link.fallbacks.web.map(onward)
        )
        return VisitAnswer(
            outcome: .landingPage,
            status: 200,
            html: settings.pages.landing(page),
            leftBehind: reachingApp.appLeftBehind
        )
    }

    /// The Play Store listing, with `referrer` (``PlayReferrer``) carrying the campaign and the
    /// click's claim token, which the app reads through the Install Referrer API on first launch.
    static func playStoreURL(package: String, referrer: String?) -> String {
        var components = URLComponents()
        components.scheme = "https"
        components.host = "play.google.com"
        components.path = "/store/apps/details"
        components.percentEncodedQueryItems = [URLQueryItem(name: "id", value: package)]
        // The referrer is itself a query string, escaped once more as a single value.
        if let escaped = referrer?.addingPercentEncoding(withAllowedCharacters: .alphanumerics) {
            components.percentEncodedQueryItems?.append(URLQueryItem(name: "referrer", value: escaped))
        }
        return components.string ?? "https://play.google.com/store/apps/details?id=\(package)"
    }
}
