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
    /// The link the app receives; it resolved to ``route`` of the manifest when it was saved.
    public var deepLink: String
    /// The manifest route the deep link resolved to.
    public var route: String
    public var fallbacks: Fallbacks
    public var preview: Preview?
    public var expiresAt: Date?
    public var createdAt: Date
    public var updatedAt: Date

    /// Where a visitor goes when the app does not open.
    public struct Fallbacks: Sendable, Hashable, Codable {
        /// The App Store id (digits), for iPhone and iPad visitors.
        public var appStoreID: String?
        /// The Play Store package, for Android visitors; the manifest's `android.package` when absent.
        public var playPackage: String?
        /// An `https` page on one of the manifest's domains, for everyone else.
        public var web: String?

        public init(appStoreID: String? = nil, playPackage: String? = nil, web: String? = nil) {
            self.appStoreID = appStoreID
            self.playPackage = playPackage
            self.web = web
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case appStoreID, playPackage, web }

        public init(from decoder: any Decoder) throws {
            try AnyKey.refuseUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue), of: "fallbacks")
            let container = try decoder.container(keyedBy: CodingKeys.self)
            appStoreID = try container.decodeIfPresent(String.self, forKey: .appStoreID)
            playPackage = try container.decodeIfPresent(String.self, forKey: .playPackage)
            web = try container.decodeIfPresent(String.self, forKey: .web)
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
        deepLink: String,
        route: String,
        fallbacks: Fallbacks = Fallbacks(),
        preview: Preview? = nil,
        expiresAt: Date? = nil,
        createdAt: Date = Date(),
        updatedAt: Date? = nil
    ) {
        self.code = code
        self.deepLink = deepLink
        self.route = route
        self.fallbacks = fallbacks
        self.preview = preview
        self.expiresAt = expiresAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }

    /// Whether the link has expired at `date`: it then answers 410 Gone.
    public func isExpired(at date: Date) -> Bool { expiresAt.map { $0 <= date } ?? false }
}
