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

    /// What is wrong with a domain as the app lists it, or `nil`: the one rule for a policy's
    /// domains, a manifest's and the command line's. A domain is a host name (`example.com`),
    /// optionally `*.` for its subdomains, with no scheme, path, port or white space; a pattern
    /// that breaks it matches no link, so listing one is a mistake to report, not to carry.
    ///
    /// ```swift
    /// DomainPattern.problem("*.example.com")        // nil
    /// DomainPattern.problem("https://example.com")  // "'https://example.com' is not a domain; …"
    /// ```
    package static func problem(_ domain: String) -> String? {
        // Letters, digits and '-': a name a certificate can be issued for (no '_', though a link's
        // host may have one), so one iOS can associate.
        let valid = isDomain(domain) { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
        }
        return valid ? nil : "'\(domain)' is not a domain; write 'example.com' or '*.example.com'."
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

    /// A host or domain as compared: lowercased, without a fully qualified name's trailing dot (the
    /// rule links follow too).
    static func canonical(_ text: String) -> String {
        String(decoding: LinkScanner.withoutTrailingDot(text.lowercased().utf8), as: UTF8.self)
    }
}
