import Testing

@testable import Waypoint

@Suite("RoutePattern parses once and names the position of every mistake")
struct RoutePatternTests {
    @Test("{id} and :id are the same; types are read")
    func parameterSyntax() throws {
        #expect(try RoutePattern("/messages/{id}").expansions == RoutePattern("/messages/:id").expansions)
        #expect(
            try RoutePattern("/a/{n:int}/{d:double}/{b:bool}/{u:uuid}/{s:string}").expansions[0] == [
                .literal("a"), .parameter(name: "n", type: .int), .parameter(name: "d", type: .double),
                .parameter(name: "b", type: .bool), .parameter(name: "u", type: .uuid),
                .parameter(name: "s", type: .string),
            ]
        )
        #expect(try RoutePattern("/files/*/**").expansions[0] == [.literal("files"), .wildcard, .catchAll])
    }

    @Test("Optional groups expand, nested and interleaved")
    func optionalGroups() throws {
        let interleaved = try RoutePattern("/required/{a}(/optional/{b})(/more/{c})")
        #expect(interleaved.expansions.count == 4)
        #expect(interleaved.expansions.map(\.count).sorted() == [2, 4, 4, 6])
        let four = try RoutePattern("/(rest/){object}/(app/){id}")
        #expect(
            Set(four.expansions.map { "/" + $0.map(\.description).joined(separator: "/") })
                == ["/{object}/{id}", "/{object}/app/{id}", "/rest/{object}/{id}", "/rest/{object}/app/{id}"]
        )
        let nested = try RoutePattern("/a(/b(/c))")
        #expect(nested.expansions.map(\.count) == [1, 2, 3])
    }

    @Test("A prefix restricts the scheme or the host")
    func prefixes() throws {
        let custom = try RoutePattern("myapp://messages/{id}")
        #expect(custom.scheme == "myapp")
        #expect(custom.host == nil)
        #expect(custom.expansions[0] == [.literal("messages"), .parameter(name: "id", type: .string)])
        #expect(try RoutePattern("MyApp:///messages/{id}").expansions == custom.expansions)
        let web = try RoutePattern("https://*.example.com/books/{id:int}")
        #expect(web.scheme == "https")
        #expect(web.host == DomainPattern("*.example.com"))
        #expect(web.expansions[0] == [.literal("books"), .parameter(name: "id", type: .int)])
        // Equality and hashing see the prefix, whatever the text.
        #expect(try RoutePattern("myapp://messages/{id}") == custom)
        #expect(try RoutePattern("other://messages/{id}") != custom)
        #expect(try RoutePattern("https://example.com/books/{id:int}") != web)
        #expect(try RoutePattern("/messages/{id}") != custom)
        #expect(try Set([custom, RoutePattern("myapp://messages/{id}"), web]).count == 2)
        // A route's host is any a link can have: '_' too, which a domain the app associates may not
        // have (no certificate carries it), since a link from a push or a web page needs none.
        #expect(try RoutePattern("https://my_host.example.com/b").host == DomainPattern("my_host.example.com"))
        #expect(DomainPattern.problem("my_host.example.com") != nil)
        #expect(try RoutePattern("HTTPS://a-b.Example.COM/b").scheme == "https")
    }

    @Test("A combining mark does not hide a separator or a group: they are bytes of the path")
    func combiningMarks() throws {
        #expect(try RoutePattern("/a/\u{301}b").expansions == [[.literal("a"), .literal("\u{301}b")]])
        #expect(
            try RoutePattern("/é(/\u{301}x)").expansions == [[.literal("é")], [.literal("é"), .literal("\u{301}x")]]
        )
        #expect(
            try RoutePattern("/Straße/{name}").expansions[0] == [
                .literal("Straße"), .parameter(name: "name", type: .string),
            ]
        )
    }

    @Test("Literals are percent-decoded")
    func decodedLiterals() throws {
        #expect(try RoutePattern("/caf%C3%A9").expansions[0] == [.literal("café")])
        #expect(try RoutePattern("/%F0%9F%9A%80").expansions[0] == [.literal("🚀")])
    }

    @Test(
        "Bad patterns are typed errors that name the pattern and the offset",
        arguments: [
            ("/a/(b", "Pattern '/a/(b': '(' is never closed (offset 3)."),
            ("/a/b)", "Pattern '/a/b)': ')' has no matching '(' (offset 4)."),
            ("/a/**/b", "Pattern '/a/**/b': '**' must be the last segment (offset 3)."),
            ("/a/{id}/{id}", "Pattern '/a/{id}/{id}': the parameter name 'id' is used twice (offset 8)."),
            (
                "/a/{id:integer}",
                "Pattern '/a/{id:integer}': unknown parameter type 'integer' (known: int, uuid, bool, double, string) (offset 3)."
            ),
            (
                "/a/id-{x}",
                "Pattern '/a/id-{x}': 'id-{x}' mixes text and a parameter; a parameter fills its whole segment (offset 3)."
            ),
            ("/a/()", "Pattern '/a/()': '()' has nothing inside (offset 3)."),
            (
                "messages/{id}",
                "Pattern 'messages/{id}': a pattern starts with '/' or with a scheme such as 'myapp://' (offset 0)."
            ),
            (
                "https:///books",
                "Pattern 'https:///books': '' is not a host name (use 'example.com' or '*.example.com'; an international domain is written in punycode, xn--…) (offset 8)."
            ),
            (
                "https://bücher.de/b/{id}",
                "Pattern 'https://bücher.de/b/{id}': 'bücher.de' is not a host name (use 'example.com' or '*.example.com'; an international domain is written in punycode, xn--…) (offset 8)."
            ),
            (
                "https://*.com/b",
                "Pattern 'https://*.com/b': '*.com' is not a host name (use 'example.com' or '*.example.com'; an international domain is written in punycode, xn--…) (offset 8)."
            ),
            (
                "https://a..example.com/b",
                "Pattern 'https://a..example.com/b': 'a..example.com' is not a host name (use 'example.com' or '*.example.com'; an international domain is written in punycode, xn--…) (offset 8)."
            ),
            (
                "/a/{1x}",
                "Pattern '/a/{1x}': '1x' is not a parameter name (letters, digits and '_', not starting with a digit) (offset 3)."
            ),
            (
                "/search?q={q}",
                "Pattern '/search?q={q}': '?' has no place in a pattern: patterns match the path; read the query in the handler (offset 7)."
            ),
            // The same character inside an optional group, which the parser reads another way.
            (
                "/a(/b#c)",
                "Pattern '/a(/b#c)': '#' has no place in a pattern: patterns match the path; read the query in the handler (offset 5)."
            ),
            (
                "/a(/{id:uuids})",
                "Pattern '/a(/{id:uuids})': unknown parameter type 'uuids' (known: int, uuid, bool, double, string) (offset 4)."
            ),
            ("/a(/b)(/b)", "Pattern '/a(/b)(/b)': its optional groups expand to '/a/b' twice (offset 0)."),
            (
                // A combining mark joins the brace into one character; it is still a brace.
                "/a/x{\u{301}",
                "Pattern '/a/x{\u{301}': 'x{\u{301}' mixes text and a parameter; a parameter fills its whole segment (offset 3)."
            ),
            (
                "/a/%\u{301}1",
                "Pattern '/a/%\u{301}1': '%\u{301}1' has a '%' not followed by two hex digits (offset 3)."
            ),
            (
                // Offsets count characters, as people do, though the parser reads bytes.
                "/café/ünï/{1x}",
                "Pattern '/café/ünï/{1x}': '1x' is not a parameter name (letters, digits and '_', not starting with a digit) (offset 10)."
            ),
            (
                "/é\u{301}(/b",
                "Pattern '/é\u{301}(/b': '(' is never closed (offset 2)."
            ),
            // Escapes that decode to bytes that are not UTF-8: cut short, overlong, a surrogate.
            ("/caf%C3", "Pattern '/caf%C3': 'caf%C3' decodes to invalid UTF-8 (offset 1)."),
            ("/a/%C0%AF", "Pattern '/a/%C0%AF': '%C0%AF' decodes to invalid UTF-8 (offset 3)."),
            ("/a/%ED%A0%80", "Pattern '/a/%ED%A0%80': '%ED%A0%80' decodes to invalid UTF-8 (offset 3)."),
        ]
    )
    func errors(pattern: String, message: String) {
        #expect(throws: WaypointError.self) { try RoutePattern(pattern) }
        do {
            _ = try RoutePattern(pattern)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("A parameter used twice across groups is caught in the expansion that has both")
    func duplicateAcrossGroups() {
        do {
            _ = try RoutePattern("/a/{x}(/b/{x})")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .duplicateParameter)
        }
    }

    @Test("Too many optional groups is an error, not an explosion")
    func tooManyGroups() {
        let pattern = "/a" + String(repeating: "(/b)", count: 9)
        do {
            _ = try RoutePattern(pattern)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .tooManyExpansions || error.code == .duplicateExpansion)
        }
        let distinct = "/a" + (0..<9).map { "(/b\($0))" }.joined()
        do {
            _ = try RoutePattern(distinct)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .tooManyExpansions)
        }
    }
}
