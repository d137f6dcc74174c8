import Foundation

/// A short link: a code on the service's domain that leads to a deep link of the app, with
/// somewhere sensible to go when the app is not installed.
///
/// ```swift
/// let link = ShortLink(code: "spring-sale", deepLink: "https://read.example.com/b/42", route: "web.book")
/// link.isExpired(at: .now)  // false: no expiry
/// ```
public struct ShortLink: Sendable, Hashable, Codable {
    /// Lowercase letters, digits, `-` and `_`; how the link is reached: `GET /{code}`.
    public var code: String
    /// The short-link domain it is shared under, one of the manifest's `shortLinks.domains`; `nil`
    /// (a link from before there were several) is on the first listed.
    public var domain: String?
    /// The link the app receives; it resolved to ``route`` of the manifest when it was saved.
    public var deepLink: String
    /// The manifest route the deep link resolved to.
    public var route: String
    public var fallbacks: Fallbacks
    public var preview: Preview?
    /// Whether a visit's query (`?utm_source=news`) is passed on: to the web, desktop or Android
    /// target, and to the deep link the app receives through a claim or `/api/resolve`.
    public var passQuery: Bool
    public var expiresAt: Date?
    public var createdAt: Date
    public var updatedAt: Date

    /// Where a visitor goes when the app does not open. Every URL is `https`, anywhere on the web:
    /// the admin chose it, so the service redirecting there is no open redirect.
    public struct Fallbacks: Sendable, Hashable, Codable {
        /// The App Store id (digits), for iPhone and iPad visitors.
        public var appStoreID: String?
        /// The Play Store package, for Android visitors; the manifest's `android.package` when absent.
        public var playPackage: String?
        /// A page for everyone the app or a store cannot serve (a campaign page on the marketing site).
        public var web: String?
        /// Where the iPhone landing page's "Get the app" leads instead of the App Store.
        public var ios: String?
        /// Where Android visitors are sent instead of the Play Store.
        public var android: String?
        /// Where desktop visitors are sent instead of ``web``.
        public var desktop: String?

        public init(
            appStoreID: String? = nil,
            playPackage: String? = nil,
            web: String? = nil,
            ios: String? = nil,
            android: String? = nil,
            desktop: String? = nil
        ) {
            self.appStoreID = appStoreID
            self.playPackage = playPackage
            self.web = web
            self.ios = ios
            self.android = android
            self.desktop = desktop
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case appStoreID, playPackage, web, ios, android, desktop }

        public init(from decoder: any Decoder) throws {
            try AnyKey.refuseUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue), of: "fallbacks")
            let container = try decoder.container(keyedBy: CodingKeys.self)
            appStoreID = try container.decodeIfPresent(String.self, forKey: .appStoreID)
            playPackage = try container.decodeIfPresent(String.self, forKey: .playPackage)
            web = try container.decodeIfPresent(String.self, forKey: .web)
            ios = try container.decodeIfPresent(String.self, forKey: .ios)
            android = try container.decodeIfPresent(String.self, forKey: .android)
            desktop = try container.decodeIfPresent(String.self, forKey: .desktop)
        }

        /// The URLs set, with their fields' names as requests spell them.
        var urls: [(field: String, url: String)] {
            [("web", web), ("ios", ios), ("android", android), ("desktop", desktop)].compactMap { field, url in
                url.map { ("fallbacks." + field, $0) }
            }
        }
    }

    /// What a chat app or social network shows for the link (Open Graph and Twitter card tags).
    public struct Preview: Sendable, Hashable, Codable {
        public var title: String?
        public var description: String?
        /// An `https` image on one of the manifest's domains.
        public var imageURL: String?

        public init(title: String? = nil, description: String? = nil, imageURL: String? = nil) {
            self.title = title
            self.description = description
            self.imageURL = imageURL
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case title, description, imageURL }

        public init(from decoder: any Decoder) throws {
            try AnyKey.refuseUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue), of: "preview")
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = try container.decodeIfPresent(String.self, forKey: .title)
            description = try container.decodeIfPresent(String.self, forKey: .description)
            imageURL = try container.decodeIfPresent(String.self, forKey: .imageURL)
        }
    }

    public init(
        code: String,
        domain: String? = nil,
        deepLink: String,
        route: String,
        fallbacks: Fallbacks = Fallbacks(),
        preview: Preview? = nil,
        passQuery: Bool = true,
        expiresAt: Date? = nil,
        createdAt: Date = Date(),
        updatedAt: Date? = nil
    ) {
        self.code = code
        self.domain = domain
        self.deepLink = deepLink
        self.route = route
        self.fallbacks = fallbacks
        self.preview = preview
        self.passQuery = passQuery
        self.expiresAt = expiresAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }

    /// Whether the link has expired at `date`: it then answers 410 Gone.
    public func isExpired(at date: Date) -> Bool { expiresAt.map { $0 <= date } ?? false }
}
