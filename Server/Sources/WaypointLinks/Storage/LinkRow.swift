import Foundation

/// A link as both engines store it: one column a field, dates as whole seconds since 1970 (UTC).
/// The one place that maps a ``ShortLink`` to columns and back, so the engines cannot drift.
struct LinkRow: Sendable, Hashable {
    /// The columns, in the order ``values`` gives them.
    static let columns = [
        "code", "deep_link", "route", "app_store_id", "play_package", "web_url", "preview_title",
        "preview_description", "preview_image_url", "expires_at", "created_at", "updated_at", "ios_url",
        "android_url", "desktop_url", "pass_query", "domain",
    ]

    /// The `LIKE` pattern (escaped with `\\`) for "contains `text`", its ASCII letters lowercased as
    /// the stored codes are and as SQLite's `lower()` lowers the deep link (Unicode's rules would
    /// turn a Kelvin sign into `k`); the stores compare it with the code and the lowercased deep
    /// link. `nil` for text no link holds, a NUL in it: PostgreSQL refuses a NUL in a value, and
    /// SQLite's `LIKE` would end the pattern there.
    ///
    /// ```swift
    /// LinkRow.likePattern(containing: "50%_Off")  // "%50\\%\\_off%"
    /// ```
    static func likePattern(containing text: String) -> String? {
        var pattern = "%"
        for scalar in text.unicodeScalars {
            if scalar == "\u{0}" { return nil }
            if scalar == "%" || scalar == "_" || scalar == "\\" { pattern.append("\\") }
            pattern.unicodeScalars.append(
                ("A"..."Z").contains(scalar) ? Unicode.Scalar(UInt8(scalar.value) + 0x20) : scalar
            )
        }
        return pattern + "%"
    }

    enum Value: Sendable, Hashable {
        case text(String?)
        /// Whole seconds for a date; 0 or 1 for a flag.
        case integer(Int?)
    }

    var code: String
    var domain: String?
    var deepLink: String
    var route: String
    var appStoreID: String?
    var playPackage: String?
    var web: String?
    var ios: String?
    var android: String?
    var desktop: String?
    var passQuery: Bool
    var previewTitle: String?
    var previewDescription: String?
    var previewImageURL: String?
    var expiresAt: Int?
    var createdAt: Int
    var updatedAt: Int

    init(_ link: ShortLink) {
        code = link.code
        domain = link.domain
        deepLink = link.deepLink
        route = link.route
        appStoreID = link.fallbacks.appStoreID
        playPackage = link.fallbacks.playPackage
        web = link.fallbacks.web
        ios = link.fallbacks.ios
        android = link.fallbacks.android
        desktop = link.fallbacks.desktop
        passQuery = link.passQuery
        previewTitle = link.preview?.title
        previewDescription = link.preview?.description
        previewImageURL = link.preview?.imageURL
        expiresAt = link.expiresAt.map(Self.seconds)
        createdAt = Self.seconds(link.createdAt)
        updatedAt = Self.seconds(link.updatedAt)
    }

    /// Reads a row through `text` and `integer`, each given a column name.
    init(text: (String) -> String?, integer seconds: (String) -> Int?) {
        code = text("code") ?? ""
        domain = text("domain")
        deepLink = text("deep_link") ?? ""
        route = text("route") ?? ""
        appStoreID = text("app_store_id")
        playPackage = text("play_package")
        web = text("web_url")
        ios = text("ios_url")
        android = text("android_url")
        desktop = text("desktop_url")
        // Rows from before the column have it set to 1 by the migration: they passed nothing, and
        // passing a visit's campaign parameters on is what a link does now.
        passQuery = seconds("pass_query").map { $0 != 0 } ?? true
        previewTitle = text("preview_title")
        previewDescription = text("preview_description")
        previewImageURL = text("preview_image_url")
        expiresAt = seconds("expires_at")
        createdAt = seconds("created_at") ?? 0
        updatedAt = seconds("updated_at") ?? createdAt
    }

    /// The values in ``columns`` order.
    var values: [Value] {
        [
            .text(code), .text(deepLink), .text(route), .text(appStoreID), .text(playPackage), .text(web),
            .text(previewTitle), .text(previewDescription), .text(previewImageURL), .integer(expiresAt),
            .integer(createdAt), .integer(updatedAt), .text(ios), .text(android), .text(desktop),
            .integer(passQuery ? 1 : 0), .text(domain),
        ]
    }

    var link: ShortLink {
        let preview = ShortLink.Preview(title: previewTitle, description: previewDescription, imageURL: previewImageURL)
        return ShortLink(
            code: code,
            domain: domain,
            deepLink: deepLink,
            route: route,
            fallbacks: ShortLink.Fallbacks(
                appStoreID: appStoreID,
                playPackage: playPackage,
                web: web,
                ios: ios,
                android: android,
                desktop: desktop
            ),
            preview: preview == ShortLink.Preview() ? nil : preview,
            passQuery: passQuery,
            expiresAt: expiresAt.map(Self.date),
            createdAt: Self.date(createdAt),
            updatedAt: Self.date(updatedAt)
        )
    }

    static func seconds(_ date: Date) -> Int { Int(date.timeIntervalSince1970.rounded(.down)) }

    static func date(_ seconds: Int) -> Date { Date(timeIntervalSince1970: Double(seconds)) }
}
