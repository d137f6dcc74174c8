import Foundation

/// The body of a create (`POST /api/links`) or update (`PATCH /api/links/{code}`) request. On
/// update, an absent field keeps its value and `null` clears an optional one (`fallbacks`,
/// `preview`, `expiresAt`; on create, `null` there means none). `code`, `domain`, `deepLink` and
/// `passQuery` are never null.
///
/// ```json
/// {"code": "spring-sale", "deepLink": "https://read.example.com/b/42",
///  "fallbacks": {"appStoreID": "1234567890", "web": "https://read.example.com/b/42"},
///  "preview": {"title": "Spring sale"}, "expiresAt": "2027-01-01T00:00:00Z"}
/// ```
public struct LinkInput: Sendable, Hashable, Decodable {
    /// A custom code; a create without one gets a generated, unguessable code. Not on update.
    public var code: String?
    /// One of the manifest's short-link domains (the first when a create leaves it out).
    public var domain: String?
    public var deepLink: String?
    public var fallbacks: ShortLink.Fallbacks?
    public var preview: ShortLink.Preview?
    /// Whether a visit's query is passed on (``ShortLink/passQuery``); `true` when a create leaves it out.
    public var passQuery: Bool?
    public var expiresAt: Date?
    /// Which optional fields the body set to `null`, so an update can clear them.
    public var cleared: Set<ClearableField> = []

    public enum ClearableField: String, Sendable, Hashable, CaseIterable {
        case fallbacks, preview, expiresAt
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case code, domain, deepLink, fallbacks, preview, passQuery, expiresAt
    }

    public init(
        code: String? = nil,
        domain: String? = nil,
        deepLink: String? = nil,
        fallbacks: ShortLink.Fallbacks? = nil,
        preview: ShortLink.Preview? = nil,
        passQuery: Bool? = nil,
        expiresAt: Date? = nil
    ) {
        self.code = code
        self.domain = domain
        self.deepLink = deepLink
        self.fallbacks = fallbacks
        self.preview = preview
        self.passQuery = passQuery
        self.expiresAt = expiresAt
    }

    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, ignoring: [])
    }

    /// The fields a link has as the API answers it and a create cannot set: an import of exported
    /// links reads past them.
    static let answerOnlyKeys = ["url", "route", "createdAt", "updatedAt"]

    /// Reads a link, passing over the `ignoring` fields and refusing any other it does not know.
    init(from decoder: any Decoder, ignoring: [String]) throws {
        try AnyKey.refuseUnknownKeys(
            in: decoder,
            known: CodingKeys.allCases.map(\.stringValue) + ignoring,
            of: "a link"
        )
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Only what can be cleared may be null; a null code or deep link would silently mean "absent".
        for key in [CodingKeys.code, .domain, .deepLink, .passQuery] where container.contains(key) {
            if try container.decodeNil(forKey: key) {
                throw LinkServiceError(
                    .invalidRequest,
                    "'\(key.stringValue)' cannot be null; leave it out instead. Only 'fallbacks', 'preview' and "
                        + "'expiresAt' can be null, which clears them."
                )
            }
        }
        code = try container.decodeIfPresent(String.self, forKey: .code)
        domain = try container.decodeIfPresent(String.self, forKey: .domain)
        deepLink = try container.decodeIfPresent(String.self, forKey: .deepLink)
        fallbacks = try container.decodeIfPresent(ShortLink.Fallbacks.self, forKey: .fallbacks)
        preview = try container.decodeIfPresent(ShortLink.Preview.self, forKey: .preview)
        passQuery = try container.decodeIfPresent(Bool.self, forKey: .passQuery)
        do {
            expiresAt = try container.decodeIfPresent(Date.self, forKey: .expiresAt)
        } catch DecodingError.dataCorrupted {
            // Foundation's message names neither the field nor the form it wants.
            throw DecodingError.dataCorruptedError(
                forKey: .expiresAt,
                in: container,
                debugDescription:
                    "should be a date and time in the years 1970 to 9999, such as \"2027-01-01T00:00:00Z\"."
            )
        }
        for field in ClearableField.allCases {
            guard let key = CodingKeys(rawValue: field.rawValue) else { continue }
            if container.contains(key), try container.decodeNil(forKey: key) { cleared.insert(field) }
        }
    }
}

/// Any key of a JSON object, to list the ones a type does not know.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }

    /// A misspelled field ("deeplink") would otherwise be ignored, and an update would do nothing.
    ///
    /// - Throws: ``LinkServiceError`` `invalidRequest` naming the unknown fields and the known ones.
    static func refuseUnknownKeys(in decoder: any Decoder, known: [String], of what: String) throws {
        let unknown = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
            .filter { !known.contains($0) }
        guard !unknown.isEmpty else { return }
        // Positions in a bulk request's array are left out: its answer says which item by its place.
        let path = decoder.codingPath.filter { $0.intValue == nil }.map(\.stringValue)
        let place = path.isEmpty ? "" : " in '\(path.joined(separator: "."))'"
        // The first few in order, and a count: a body of a million made-up keys gets a short answer.
        var first: [String] = []
        for key in unknown where first.count < Self.unknownKeysShown || key < first[first.count - 1] {
            first.insert(key, at: first.firstIndex { key < $0 } ?? first.endIndex)
            if first.count > Self.unknownKeysShown { first.removeLast() }
        }
        let more = unknown.count > first.count ? " and \(unknown.count - first.count) more" : ""
        throw LinkServiceError(
            .invalidRequest,
            "Unknown field \(first.map { "'\($0)'" }.joined(separator: ", "))\(more)\(place); "
                + "\(what) has \(known.joined(separator: ", "))."
        )
    }

    /// How many unknown keys a refusal names.
    static let unknownKeysShown = 5
}
