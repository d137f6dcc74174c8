import Foundation

/// Where a click came from, counted beside the click rather than in its ``ClickKey``: the host of
/// the page that linked (its `Referer`, nothing after the host) and the country the CDN in front of
/// the service names (`serve --country-header CF-IPCountry`). Neither tells one visitor from
/// another, and neither is stored with anything that does.
///
/// ```swift
/// ClickSource.referrer("https://News.example.com/spring?id=7")  // referrer "news.example.com"
/// ClickSource.referrer(nil)                                     // referrer "(direct)"
/// ClickSource.country("de")                                     // country "DE"
/// ```
public struct ClickSource: Sendable, Hashable {
    public enum Dimension: String, Sendable, Hashable, CaseIterable {
        case referrer, country

        /// Distinct values one link counts on one day, `(other)` aside. Past it, a new value is
        /// counted as `(other)`: a script sending a new `Referer` with every visit cannot grow the
        /// table without limit. Countries stay below it: there are fewer than 300 codes.
        public var valuesPerDay: Int {
            switch self {
            case .referrer: 100
            case .country: 300
            }
        }

        /// The value a click is counted under on a day that counts `valuesCounted` values
        /// (`(other)` aside), `value` among them or not: its own while the day has room, else
        /// `(other)`. The one rule the counter in memory and both engines apply.
        func admitted(_ value: String, isCounted: Bool, valuesCounted: Int) -> String {
            isCounted || value == ClickSource.other || valuesCounted < valuesPerDay ? value : ClickSource.other
        }
    }

    public var dimension: Dimension
    public var value: String

    public init(_ dimension: Dimension, _ value: String) {
        self.dimension = dimension
        self.value = value
    }

    /// A visit that sent no `Referer`: typed, bookmarked, or from an app or a page that withholds it.
    public static let direct = "(direct)"
    /// The app asked for the link (`/api/resolve/{code}`) after iOS or Android opened it directly:
    /// the system does not tell the app which page linked.
    public static let app = "(app)"
    /// A header that is not a URL with a host, or not a country code.
    public static let unknown = "(unknown)"
    /// Values past a day's ``Dimension/valuesPerDay``.
    public static let other = "(other)"

    /// The longest host counted (DNS allows 253 characters); a longer one is `(unknown)`.
    static let maxHostLength = 253

    /// The host of a `Referer` header, lowercased and without port or trailing dot; `(direct)` with
    /// no header, `(unknown)` for one that is not an `http`, `https` or `android-app` URL with a
    /// host (Android apps send `android-app://<package>`).
    public static func referrer(_ header: String?) -> ClickSource {
        guard let header, !header.isEmpty else { return ClickSource(.referrer, direct) }
        guard let components = URLComponents(string: header),
            let scheme = components.scheme?.lowercased(), ["http", "https", "android-app"].contains(scheme),
            let host = components.host.map(LinkDomains.normalized), !host.isEmpty, host.count <= maxHostLength,
            host.unicodeScalars.allSatisfy(isHostScalar)
        else { return ClickSource(.referrer, unknown) }
        return ClickSource(.referrer, host)
    }

    /// The country a CDN header names: two letters or digits (`DE`, `XX` for none, `T1` for Tor, as
    /// Cloudflare sends them), uppercased; `(unknown)` when the header is missing or not such a code.
    public static func country(_ header: String?) -> ClickSource {
        let code = (header ?? "").trimmingCharacters(in: .whitespaces).uppercased()
        guard code.utf8.count == 2, code.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) })
        else { return ClickSource(.country, unknown) }
        return ClickSource(.country, code)
    }

    /// Letters, digits, `-`, `.`, `_`, and the brackets and colons of an IPv6 address.
    private static func isHostScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "0"..."9", "-", ".", "_", "[", "]", ":": true
        default: false
        }
    }
}

/// What a source is counted by: the link, the day (UTC) and the source.
public struct ClickSourceKey: Sendable, Hashable {
    public var code: String
    /// Days since 1970-01-01 (UTC), as ``ClickKey/day``.
    public var day: Int
    public var source: ClickSource

    public init(code: String, day: Int, source: ClickSource) {
        self.code = code
        self.day = day
        self.source = source
    }

    /// The link, day and dimension: what the limit on distinct values counts by.
    struct Group: Hashable {
        let code: String
        let day: Int
        let dimension: ClickSource.Dimension
    }

    var group: Group { Group(code: code, day: day, dimension: source.dimension) }
}

/// A stored count of clicks from one source.
public struct ClickSourceCount: Sendable, Hashable {
    public var key: ClickSourceKey
    public var count: Int

    public init(key: ClickSourceKey, count: Int) {
        self.key = key
        self.count = count
    }
}

/// Source counts kept within each day's limit as they are added: the counter's for one batch (so
/// memory stays bounded too), and each engine's for a batch it writes, started from the values the
/// database already counts.
struct ClickSourceTally: Sendable {
    private var tally: [ClickSourceKey: Int] = [:]
    /// Distinct values, `(other)` aside, per link, day and dimension.
    private var valuesCounted: [ClickSourceKey.Group: Int] = [:]

    /// Starts from values already counted elsewhere (in the database), which add nothing themselves.
    init(counted: some Sequence<ClickSourceKey> = []) {
        for key in counted { add(key, 0) }
    }

    /// The counts added, without the values only known from ``init(counted:)``.
    var counts: [ClickSourceKey: Int] { tally.filter { $0.value > 0 } }

    mutating func add(_ key: ClickSourceKey, _ count: Int = 1) {
        var key = key
        let isCounted = tally[key] != nil
        let value = key.source.dimension.admitted(
            key.source.value,
            isCounted: isCounted,
            valuesCounted: valuesCounted[key.group, default: 0]
        )
        if !isCounted && value == key.source.value && value != ClickSource.other {
            valuesCounted[key.group, default: 0] += 1
        }
        key.source.value = value
        tally[key, default: 0] += count
    }
}
