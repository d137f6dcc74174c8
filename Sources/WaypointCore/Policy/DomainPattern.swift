/// A domain the app claims, exactly (`example.com`) or with its subdomains (`*.example.com`).
///
/// `*.example.com` matches `www.example.com` and `a.b.example.com` but not `example.com` itself:
/// list both when both open the app. Hosts compare case-insensitively, byte for byte otherwise, so an
/// IDN look-alike (a Cyrillic `а` in `exаmple.com`) never matches, and a host with anything but
/// letters, digits, `-`, `.` and `_` (an escape, a `/`) matches nothing.
///
/// ```swift
/// DomainPattern("*.example.com").matches("www.example.com") // true
/// DomainPattern("example.com").matches("evil-example.com")  // false
/// ```
public struct DomainPattern: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The domain without `*.`, lowercased and without a trailing dot.
    public let domain: String
    /// Whether the pattern was written `*.domain`.
    public let includesSubdomains: Bool

    /// Reads `example.com` or `*.example.com`.
    public init(_ text: String) {
        let domain = Self.canonical(text)
        includesSubdomains = domain.hasPrefix("*.")
        self.domain = includesSubdomains ? String(domain.dropFirst(2)) : domain
    }

    public init(stringLiteral value: String) { self.init(value) }

    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Whether `host` is this domain (or, for `*.`, one of its subdomains).
    public func matches(_ host: String) -> Bool {
        var host = host
        return host.withUTF8 { matches($0, 0..<$0.count) }
    }

    /// Whether the host `bytes[range]`, in any case, is this domain (or, for `*.`, one of its
    /// subdomains): the one rule of a host against a domain, for the policy's lists, the redirect
    /// rule and a route's host alike.
    @usableFromInline
    func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        let host = LinkScanner.withoutTrailingDot(bytes[range])
        // Only a plain domain name can be one of ours: an escape or a '/' in a host
        // (`a%2F.example.com`) would pass the suffix test and then name another host.
        guard !domain.isEmpty, host.allSatisfy(LinkScanner.isHostByte) else { return false }
        let length = domain.utf8.count
        if includesSubdomains {
            // `*.example.com` matches `x.example.com`: longer than the domain, with a dot before it.
            guard host.count > length + 1, host[host.endIndex - length - 1] == UInt8(ascii: ".") else { return false }
        } else {
            guard host.count == length else { return false }
        }
        return host.suffix(length).lazy.map(asciiLowercased).elementsEqual(domain.utf8)
    }

    /// Whether some host matches both patterns, by ``matches(_:)`` alone: a host one pattern stands
    /// for (the domain, or a subdomain of it for `*.`) that the other matches.
    package func overlaps(_ other: DomainPattern) -> Bool {
        other.matches(sampleHost) || matches(other.sampleHost)
    }

    /// A host this pattern matches: its domain, or a subdomain of it for `*.`. Whenever a host
    /// matches both patterns, one pattern's sample host matches the other.
    private var sampleHost: String { includesSubdomains ? "x." + domain : domain }

    public var description: String { includesSubdomains ? "*." + domain : domain }

    /// What is wrong with a domain the app claims, or `nil`: the one rule for a policy's associated
    /// domains, a web view's origins, a manifest's domains and the command line's. A domain is a host
    /// name (`example.com`), optionally `*.` for its subdomains, with no scheme, path, port or white
    /// space; a pattern that breaks it matches no link, so listing one is a mistake to report, not to
    /// carry. `*.com` has the shape but claims every site under a top-level domain, which no app
    /// serves.
    ///
    /// ```swift
    /// DomainPattern.problem("*.example.com")        // nil
    /// DomainPattern.problem("https://example.com")  // "'https://example.com' is not a domain; …"
    /// DomainPattern.problem("*.com")                // "'*.com' claims every site under '.com'; …"
    /// ```
    package static func problem(_ domain: String) -> String? {
        if let problem = shapeProblem(domain) { return problem }
        let pattern = DomainPattern(domain)
        guard !pattern.isTopLevelWildcard else {
            return "'\(domain)' claims every site under '.\(pattern.domain)'; list the domains the app serves, "
                + "such as '*.example.com'."
        }
        return nil
    }

    /// What is wrong with the shape of a host the app refuses or passes on (a policy's denied and
    /// pass-through hosts), or `nil`: ``problem(_:)`` without its claim, since denying every site
    /// under `*.tk` is a choice an app may make.
    package static func shapeProblem(_ domain: String) -> String? {
        // Letters, digits and '-': a name a certificate can be issued for (no '_', though a link's
        // host may have one), so one iOS can associate.
        let valid = isDomain(domain) { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
        }
        return valid ? nil : "'\(domain)' is not a domain; write 'example.com' or '*.example.com'."
    }

    /// Whether the pattern is `*.` and one label (`*.com`): every site under a top-level domain.
    package var isTopLevelWildcard: Bool {
        includesSubdomains && !domain.utf8.contains(UInt8(ascii: "."))
    }

    /// Whether `text` is a domain's shape: labels joined by `.`, none empty, each of bytes `allowed`
    /// takes, after an optional `*.`. The one shape of a domain the app lists and of a route's host,
    /// which differ only in the bytes they take.
    static func isDomain(_ text: String, bytes allowed: (UInt8) -> Bool) -> Bool {
        let host = text.hasPrefix("*.") ? text.utf8.dropFirst(2) : text.utf8[...]
        return host.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.allSatisfy(allowed)
        }
    }

    /// A host or domain as compared: ASCII letters lowercased, without a fully qualified name's
    /// trailing dot (the rules links follow too). Only ASCII: Unicode lowercasing would make the
    /// Kelvin sign (U+212A) a `k`, and `ex\u{212A}.com` pass for `exk.com`.
    static func canonical(_ text: String) -> String {
        String(decoding: LinkScanner.withoutTrailingDot(text.utf8.map(asciiLowercased)), as: UTF8.self)
    }
}
