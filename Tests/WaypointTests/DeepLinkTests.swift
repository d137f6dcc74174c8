import Foundation
import Testing

@testable import Waypoint
@testable import WaypointCore

@Suite("DeepLink normalizes every form of a link")
struct DeepLinkTests {
    @Test("A custom scheme's host is the first segment, with or without the third slash and in any case")
    func customSchemeHostIsFirstSegment() throws {
        #expect(try DeepLink("myapp://messages/1").pathSegments == ["messages", "1"])
        #expect(try DeepLink("myapp:///messages/1").pathSegments == ["messages", "1"])
        let shouting = try DeepLink("MYAPP://Messages/1")
        #expect(shouting.scheme == "myapp")
        #expect(shouting.pathSegments == ["Messages", "1"])
        #expect(shouting.host == nil)
    }

    @Test("An https link keeps its host and routes on its path")
    func webLinkKeepsHost() throws {
        let link = try DeepLink("HTTPS://Example.COM:8443/books/42?tab=reviews#top")
        #expect(link.scheme == "https")
        #expect(link.host == "example.com")
        #expect(link.port == 8443)
        #expect(link.pathSegments == ["books", "42"])
        #expect(link.queryValue("tab") == "reviews")
        #expect(link.fragment == "top")
        #expect(link.source == .text, "a source is never inferred from the text")
    }

    @Test("A fragment with percent-encoded UTF-8 is read and decoded; a broken one is still refused")
    func encodedFragment() throws {
        #expect(try DeepLink("https://example.com/books/1#%E7%AC%AC").fragment == "第")
        #expect(try DeepLink("myapp://books/1#ch%201%20%F0%9F%93%96").fragment == "ch 1 📖")
        #expect(throws: WaypointError.self) { try DeepLink("myapp://books/1#%E7%AC") }
        #expect(throws: WaypointError.self) { try DeepLink("myapp://books/1#%C0%AF") }
        // A template filling a fragment with CJK text builds a link that reads back.
        let built = try DeepLink(scheme: "myapp", segments: ["books", "1"], fragment: "第一章")
        #expect(try DeepLink(built.string).fragment == "第一章")
    }

    @Test("User info is recognized, so the real host is the one after '@'")
    func userInfoDoesNotHideTheHost() throws {
        let link = try DeepLink("https://example.com@evil.com/login")
        #expect(link.host == "evil.com")
        #expect(link.hasUserInfo)
    }

    @Test("Segments are split first, then decoded once")
    func splitThenDecode() throws {
        #expect(try DeepLink("myapp://files/a%2Fb/c").pathSegments == ["files", "a/b", "c"])
        #expect(try DeepLink("myapp://files/a%252Fb").pathSegments == ["files", "a%2Fb"])
        #expect(try DeepLink("myapp://user/joel%20levin").pathSegments == ["user", "joel levin"])
    }

    @Test("Empty segments from doubled or trailing slashes are dropped")
    func emptySegmentsDropped() throws {
        #expect(try DeepLink("myapp://a//b///c/").pathSegments == ["a", "b", "c"])
        #expect(try DeepLink("myapp://").pathSegments == [])
        #expect(try DeepLink("/").pathSegments == [])
    }

    @Test("'+' is literal in a path; in a query it is a space and %2B is '+'")
    func plusHandling() throws {
        let link = try DeepLink("myapp://tags/c++?q=a+b&r=c%2Bd")
        #expect(link.pathSegments == ["tags", "c++"])
        #expect(link.queryValue("q") == "a b")
        #expect(link.queryValue("r") == "c+d")
    }

    @Test("Query items keep their order and repeated names")
    func repeatedQueryItems() throws {
        let link = try DeepLink("myapp://x?key=1&key=2&flag&key=3&=v")
        #expect(link.queryValues("key") == ["1", "2", "3"])
        #expect(link.queryItems.map(\.name) == ["key", "key", "flag", "key", ""])
        #expect(link.queryItems[2].value == nil)
    }

    @Test("A bare path is a link too")
    func barePath() throws {
        let link = try DeepLink("/messages/1?x=2")
        #expect(link.scheme == nil)
        #expect(link.pathSegments == ["messages", "1"])
        #expect(link.source == .text)
    }

    @Test("Text from people is percent-encoded instead of rejected")
    func lenientText() throws {
        let chinese = try DeepLink(text: "  readapp://search?q=三体 小说&tag=科幻\n")
        #expect(chinese.queryValue("q") == "三体 小说")
        #expect(chinese.queryValue("tag") == "科幻")
        #expect(chinese.source == .text)
        let spaced = try DeepLink(text: "readapp://books/The Three Body/50%")
        #expect(spaced.pathSegments == ["books", "The Three Body", "50%"])
        let emoji = try DeepLink(text: "myapp://react/👍")
        #expect(emoji.pathSegments == ["react", "👍"])
    }

    @Test("The same text is refused by strict parsing, with the byte named")
    func strictRefusesSpaces() {
        #expect(throws: WaypointError.self) { try DeepLink("myapp://a b") }
        do {
            _ = try DeepLink("myapp://a b")
        } catch {
            #expect(error.code == .invalidCharacter)
            #expect(error.offset == 9)
            #expect(
                error.description
                    == "Link 'myapp://a b' has a space at byte 9; percent-encode it, or read text from people leniently (LinkIntake.text(_:), DeepLink(text:))."
            )
        }
    }

    @Test("Backslashes and control characters are refused even from people")
    func backslashesRefused() {
        for text in ["https:\\\\evil.com", "myapp://a\\b", "myapp://a\u{01}b", "myapp://a\u{7F}"] {
            #expect(throws: WaypointError.self, "\(text)") { try DeepLink(text: text) }
        }
        do {
            _ = try DeepLink(text: "https:\\\\evil.com")
        } catch {
            #expect(error.input == "https:\\\\evil.com")
            #expect(error.description.contains("a backslash"))
        }
    }

    @Test("Errors say why: missing scheme, bad escape, NUL, invalid UTF-8, missing host, empty")
    func typedErrors() {
        func code(_ text: String) -> WaypointError.Code? {
            do {
                _ = try DeepLink(text)
                return nil
            } catch { return error.code }
        }
        #expect(code("") == .empty)
        #expect(code("example.com/x") == .missingScheme)
        #expect(code("hello world") == .missingScheme)
        // A scheme someone meant, with a character schemes cannot hold: said as such.
        #expect(code("my_app://x") == .invalidScheme)
        #expect(code("1password://vault") == .invalidScheme)
        let invalid = #expect(throws: WaypointError.self) { try DeepLink("my_app://x") }
        #expect(
            invalid?.message
                == "'my_app' is not a valid scheme: a scheme starts with a letter and holds only letters, digits, "
                + "'+', '-' and '.' (RFC 3986)."
        )
        #expect(code("myapp://a%zz") == .invalidPercentEscape)
        #expect(code("myapp://a%2") == .invalidPercentEscape)
        #expect(code("myapp://a%00b") == .nulByte)
        #expect(code("myapp://a%FFb") == .invalidUTF8)
        #expect(code("myapp://a%C3") == .invalidUTF8)
        #expect(code("myapp://a%ED%A0%80") == .invalidUTF8)  // a UTF-16 surrogate
        #expect(code("https:///path") == .invalidHost)
        #expect(code("https:example.com") == .invalidHost)
        #expect(code("myapp://x#a#b") == .invalidCharacter)
        #expect(code("myapp://caf%C3%A9") == nil)
    }

    @Test("Limits are typed errors, never a truncation")
    func limits() {
        let limits = LinkLimits(maxLength: 64, maxSegments: 3, maxQueryItems: 2)
        #expect(throws: WaypointError.self) {
            try DeepLink("myapp://" + String(repeating: "a", count: 100), limits: limits)
        }
        #expect(throws: WaypointError.self) { try DeepLink("myapp://a/b/c/d", limits: limits) }
        #expect(throws: WaypointError.self) { try DeepLink("myapp://a?x=1&y=2&z=3", limits: limits) }
        #expect((try? DeepLink("myapp://a/b/c?x=1&y=2", limits: limits)) != nil)
        do {
            _ = try DeepLink("myapp://a/b/c/d", limits: limits)
        } catch {
            #expect(error.code == .tooManySegments)
            #expect(error.description == "Link has more than 3 path segments, the limit.")
        }
        let defaults = LinkLimits.default
        #expect(defaults.maxLength == 4096 && defaults.maxSegments == 32 && defaults.maxQueryItems == 64)
    }

    @Test("A custom scheme's host counts as a segment, as it routes as one")
    func hostSegmentCounts() throws {
        for limit in [0, -5] {
            #expect(throws: WaypointError.self) {
                try DeepLink("myapp://pay?a=1", limits: LinkLimits(maxSegments: limit))
            }
        }
        let one = LinkLimits(maxSegments: 1)
        #expect(try DeepLink("myapp://pay", limits: one).pathSegments == ["pay"])
        #expect(try DeepLink("myapp:///pay", limits: one).pathSegments == ["pay"])
        #expect(try DeepLink("https://example.com/pay", limits: one).pathSegments == ["pay"])
        do {
            _ = try DeepLink("myapp://pay/1", limits: one)
            Issue.record("two segments passed a limit of one")
        } catch {
            #expect(error.code == .tooManySegments)
        }
    }

    @Test("The scanner's segment count is what the splitter yields, for any arrangement of slashes")
    func segmentCountAgreesWithSplitter() throws {
        // The router sizes its segment buffer from the count and fills it through the splitter.
        var random = SeededRandom(seed: 21)
        let pieces = ["/", "/", "a", "bc", "%2F", "é", "//"]
        for _ in 0..<2_000 {
            let path = (0..<Int.random(in: 0...12, using: &random)).map { _ in
                pieces.randomElement(using: &random) ?? "/"
            }
            for prefix in ["myapp://", "myapp://host", "https://example.com", ""] {
                let text = prefix + (prefix.isEmpty ? "/" : "") + path.joined() + "?q=1"
                guard let link = try? DeepLink(text) else { continue }
                var yielded = 0
                link.withBytes { bytes in link.components.forEachSegment(bytes) { _, _ in yielded += 1 } }
                #expect(link.components.segmentCount == yielded, "\(text)")
                #expect(link.pathSegments.count == yielded, "\(text)")
            }
        }
    }

    @Test("A URL and its string parse alike")
    func fromURL() throws {
        let url = try #require(URL(string: "myapp://pay?order_id=123"))
        #expect(try DeepLink(url: url) == DeepLink("myapp://pay?order_id=123"))
    }

    @Test("Links built from parts encode what needs it and parse back to the same parts")
    func builtFromParts() throws {
        let link = try DeepLink(
            scheme: "myapp",
            segments: ["files", "a/b", "50% off", "c++"],
            query: [QueryItem(name: "q", value: "a&b=c+d"), QueryItem(name: "flag", value: nil)],
            fragment: "top"
        )
        #expect(link.string == "myapp://files/a%2Fb/50%25%20off/c++?q=a%26b%3Dc%2Bd&flag#top")
        #expect(link.pathSegments == ["files", "a/b", "50% off", "c++"])
        #expect(link.queryItems == [QueryItem(name: "q", value: "a&b=c+d"), QueryItem(name: "flag", value: nil)])
        let web = try DeepLink(scheme: "https", host: "Example.com", segments: ["books", "42"])
        #expect(web.string == "https://example.com/books/42")
        // The host is spliced in, so it must be one: anything else would name another host or path.
        for host in ["good.com@evil.com", "example.com/evil", "example.com:8443", "*.example.com", "", "ex ample.com"] {
            do {
                let link = try DeepLink(scheme: "https", host: host, segments: ["books"])
                Issue.record("'\(host)' built \(link)")
            } catch {
                #expect(error.code == .invalidHost, "\(host)")
                #expect(error.message.hasPrefix("'\(host)' is not a host name;"), "\(error.message)")
            }
        }
    }
}

/// The scanner's bit masks against the RFC 3986 character classes they stand for, byte by byte.
@Suite("The link scanner's character classes agree with RFC 3986")
struct LinkCharacterClassTests {
    static let letters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
    static let digits = Set("0123456789".utf8)

    @Test("Scheme: a letter first, then letters, digits, '+', '-' or '.'")
    func schemeBytes() {
        for byte in UInt8.min...UInt8.max {
            let later = Self.letters.contains(byte) || Self.digits.contains(byte) || "+-.".utf8.contains(byte)
            #expect(LinkScanner.isSchemeLetter(byte) == Self.letters.contains(byte), "\(byte)")
            #expect(LinkScanner.isSchemeByte(byte) == later, "\(byte)")
        }
    }

    @Test("Plain path bytes: unreserved, sub-delims, ':' and '@'")
    func plainBytes() {
        let plain = Self.letters.union(Self.digits).union("-._~!$&'()*+,;=:@".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(LinkScanner.isPlain(byte) == plain.contains(byte), "\(byte)")
        }
    }

    @Test("Allowed bytes: plain ones, and '/', '?', '#', '[', ']' and '%'")
    func allowedBytes() {
        let allowed = Self.letters.union(Self.digits).union("-._~!$&'()*+,;=:@/?#[]%".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(LinkScanner.isAllowed(byte) == allowed.contains(byte), "\(byte)")
        }
    }

    @Test("Web links are http and https in any case, nothing longer or shorter")
    func webSchemes() throws {
        for scheme in ["http", "https", "HTTP", "hTtPs"] {
            #expect(throws: WaypointError.self) { try DeepLink("\(scheme):/no-host") }
            #expect(try DeepLink("\(scheme)://example.com/a").host == "example.com")
        }
        for scheme in ["htt", "httpx", "httpss", "xhttp", "h", "web+https"] {
            #expect(try DeepLink("\(scheme):/a").host == nil, "\(scheme)")
            #expect(try DeepLink("\(scheme):/a").pathSegments == ["a"], "\(scheme)")
        }
    }
}
