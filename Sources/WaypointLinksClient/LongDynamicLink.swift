import Foundation

/// A long Firebase Dynamic Link (`https://links.example.com/?link=…&utm_source=…&isi=…`), read as
/// Firebase read it: made without asking for a short code, so apps, emails and posters still carry
/// them after the domain moved to Waypoint Links. The app opened by one and Waypoint Links read it
/// with this one type, so the app gets the same deep link whether it was installed or claims the
/// link after an install.
///
/// The deep link is `link`, with the campaign items (`utm_*`) the long link carries added to its
/// query where it does not set them itself, and `ct` as `utm_campaign` where nothing names one.
///
/// ```swift
/// let link = try LongDynamicLink("https://links.example.com/?link=readapp%3A%2F%2Fbooks%2F7&utm_source=news&isi=123")
/// link.deepLink            // "readapp://books/7?utm_source=news"
/// link.parameters["isi"]   // "123"
/// ```
public struct LongDynamicLink: Sendable, Hashable {
    /// The link the app opens: `link`, with the long link's campaign items.
    public let deepLink: String
    /// The first value of each parameter other than `link` and `utm_*`, decoded as a form encodes
    /// it (`st=Spring+sale` is `Spring sale`): `isi`, `apn`, `ifl`, `st`…
    public let parameters: [String: String]
    /// The names of those parameters in the order they came, a repeated one each time: for the
    /// service's import report, so not in the API an app sees.
    @_spi(WaypointLinks) public let parameterNames: [String]
    /// Whether `ct` was passed over because the link names its own `utm_campaign`: for the
    /// service's import report.
    @_spi(WaypointLinks) public let campaignTokenPassedOver: Bool

    /// Reads `text`, a long link whole.
    ///
    /// - Throws: ``LongDynamicLinkError`` for text that is no URL, or has no `link`.
    public init(_ text: String) throws(LongDynamicLinkError) {
        guard let url = URLComponents(string: Self.escaped(text)), url.scheme != nil else {
            throw LongDynamicLinkError("'\(Self.shortened(text))' is not a URL.")
        }
        var parameters: [String: String] = [:]
        var names: [String] = []
        // Kept encoded as they came: they are added to the link's query as they are.
        var campaign: [String] = []
        var link: String?
        for pair in (url.percentEncodedQuery ?? "").split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.formDecoded(parts[0])
            let value = parts.count > 1 ? Self.formDecoded(parts[1]) : ""
            if name.hasPrefix("utm_") {
                campaign.append(String(pair))
            } else if name == "link" {
                // The first of a repeated parameter counts, as Firebase read it.
                if link == nil { link = value }
            } else {
                names.append(name)
                if parameters[name] == nil { parameters[name] = value }
            }
        }
        guard let link else {
            throw LongDynamicLinkError(
                "'\(Self.shortened(text))' has no 'link' parameter: a long Dynamic Link names its deep link there."
            )
        }
        guard !link.isEmpty else {
            throw LongDynamicLinkError(
                "'\(Self.shortened(text))' has an empty 'link' parameter (the first 'link' counts, as Firebase "
                    + "read it): a long Dynamic Link names its deep link there."
            )
        }
        // App Store Connect's campaign token names the campaign where no `utm_campaign` does.
        var passedOver = false
        if let token = parameters["ct"], !token.isEmpty {
            let named = campaign.map(Self.name(of:)) + (URLComponents(string: link)?.queryItems ?? []).map(\.name)
            if named.contains("utm_campaign") {
                passedOver = true
            } else if let encoded = token.addingPercentEncoding(withAllowedCharacters: Self.unreserved) {
                campaign.append("utm_campaign=" + encoded)
            }
        }
        self.deepLink = Self.adding(campaign, to: link)
        self.parameters = parameters
        self.parameterNames = names
        self.campaignTokenPassedOver = passedOver
    }

    /// What a query value keeps unescaped: RFC 3986's unreserved characters.
    static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~"
    )

    /// What a long link's text may hold unescaped, from its scheme to the end of its query, and `%`
    /// of what is escaped. Not `#`: a Dynamic Link's own fragment meant nothing to Firebase, and one
    /// left unescaped in `link=…/b/42#ch2&isi=…` belongs to the deep link, not the end of the query.
    static let urlCharacters = CharacterSet.urlQueryAllowed.union(CharacterSet(charactersIn: "%"))

    /// `text` with what a URL cannot hold escaped, leaving each `%XX` as it is: the `|`, `{`, `^`,
    /// `\`, `#`, spaces and accents that browsers and hand-written files leave unescaped, and a `%`
    /// that starts no `%XX` (`50%off`). Each then reads as the character it is; else Foundation
    /// escapes the whole text, `%XX` too, and no value decodes.
    static func escaped(_ text: String) -> String {
        let bytes = Array(text.utf8)
        func isHex(_ index: Int) -> Bool {
            index < bytes.count && (bytes[index] < 0x80 && Character(Unicode.Scalar(bytes[index])).isHexDigit)
        }
        var fixed: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            let stray = byte == UInt8(ascii: "%") && !(isHex(index + 1) && isHex(index + 2))
            fixed += stray ? Array("%25".utf8) : [byte]
        }
        let text = String(decoding: fixed, as: UTF8.self)
        return text.addingPercentEncoding(withAllowedCharacters: urlCharacters) ?? text
    }

    /// A query's name or value as a form encodes it: `+` for a space (Firebase's own examples write
    /// `st=Spring+sale`), `%XX` for a byte.
    static func formDecoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// `link` with the campaign items (`name=value`, encoded) whose names it does not set itself,
    /// appended to its query as they are: the rest of the link is left byte for byte.
    static func adding(_ campaign: [String], to link: String) -> String {
        guard !campaign.isEmpty, let components = URLComponents(string: link) else { return link }
        let present = Set((components.queryItems ?? []).map(\.name))
        let added = campaign.filter { !present.contains(name(of: $0)) }
        guard !added.isEmpty else { return link }
        let fragment = link.firstIndex(of: "#")
        let head = fragment.map { String(link[..<$0]) } ?? link
        let tail = fragment.map { String(link[$0...]) } ?? ""
        let separator = head.contains("?") ? (head.hasSuffix("?") || head.hasSuffix("&") ? "" : "&") : "?"
        return head + separator + added.joined(separator: "&") + tail
    }

    /// The name of a query item as written (`utm_source=news`, `utm%5Fsource`), decoded.
    static func name(of item: String) -> String {
        formDecoded(item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0])
    }

    /// A long line cut for a message.
    static func shortened(_ text: String) -> String { text.count > 120 ? text.prefix(117) + "…" : text }
}

/// Why text is no long Dynamic Link: it is no URL, or it has no `link`.
///
/// ```swift
/// do { _ = try LongDynamicLink("https://links.example.com/?isi=123") } catch {
///     error.message   // "'https://links.example.com/?isi=123' has no 'link' parameter: …"
/// }
/// ```
public struct LongDynamicLinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the text (cut at 120 characters).
    public let message: String

    init(_ message: String) { self.message = message }

    public var description: String { message }
}
