import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WaypointManifest

@testable import WaypointLinks

/// Issue 41: links brought in from Firebase Dynamic Links, CSV and JSON lines, and taken out again.
@Suite("Import and export")
struct ImportExportTests {
    static let dynamicLinks = """
        # exported from Firebase
        spring,https://readapp.page.link/?link=https%3A%2F%2Fread.example.com%2Fb%2F42&apn=com.example.reading&isi=1234567890&ibi=com.example.reading&st=Spring%20sale&sd=Half%20price&si=https%3A%2F%2Fread.example.com%2Fcover.png&utm_source=poster&utm_campaign=spring&efr=1

        https://readapp.page.link/?link=readapp%3A%2F%2Fbooks%2F7&ofl=https%3A%2F%2Fwww.example.com%2Fdesktop&afl=https%3A%2F%2Fwww.example.com%2Fandroid&ifl=https%3A%2F%2Fwww.example.com%2Fios
        broken,https://readapp.page.link/?apn=com.example.reading
        nowhere,https://readapp.page.link/?link=readapp%3A%2F%2Fnowhere
        Spring,https://readapp.page.link/?link=readapp%3A%2F%2Fbooks%2F8
        plain,https://readapp.page.link/?link=readapp%3A%2F%2Fbooks%2F9&ifl=http%3A%2F%2Finsecure.example.com
        kept,https://readapp.page.link/?link=https%3A%2F%2Fread.example.com%2Fb%2F5%3Futm_source%3Dmine&utm_source=theirs&utm_medium=email
        storage,https://readapp.page.link/?link=readapp%3A%2F%2Fbooks%2F11&st=Eleven&si=https%3A%2F%2Ffirebasestorage.googleapis.com%2Fv0%2Fb%2Fx.png
        """

    static func post(
        _ client: some TestClientProtocol,
        _ uri: String,
        _ body: String,
        token: String
    ) async throws -> (HTTPResponse.Status, [String: Any]) {
        try await client.execute(
            uri: uri,
            method: .post,
            headers: [.authorization: "Bearer \(token)"],
            body: ByteBuffer(string: body)
        ) { response in
            let json =
                (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))) as? [String: Any]
            return (response.status, json ?? [:])
        }
    }

    @Test("Long Dynamic Links map to links; lines that cannot be imported are reported by number and why")
    func dynamicLinkImport() async throws {
        let fixture = try await ServiceFixture.make()
        // The store is closed whatever the checks find.
        do {
            try await Application(router: fixture.service.router()).test(.router) { client in
                let (status, report) = try await Self.post(
                    client,
                    "/api/links/import?format=fdl",
                    Self.dynamicLinks,
                    token: fixture.token
                )
                #expect(status == .ok)
                #expect(report["imported"] as? Int == 4)
                #expect(report["refused"] as? Int == 4)
                let refusals = try #require(report["refusals"] as? [[String: Any]])
                #expect(refusals.map { $0["line"] as? Int } == [5, 6, 7, 8])
                #expect(
                    refusals.map { $0["code"] as? String } == [
                        "invalidRequest", "deepLinkUnresolved", "codeTaken", "urlNotAllowed",
                    ]
                )
                #expect((refusals[0]["message"] as? String)?.contains("no 'link' parameter") == true)
                #expect(
                    report["ignoredParameters"] as? [String: Int] == [
                        "efr": 1, "ibi": 1, LinkImport.offDomainImage: 1,
                    ]
                )
            }
            // An image Firebase allowed anywhere is left out; the link and the rest of its preview are kept.
            #expect(try await fixture.store.link(code: "storage")?.preview == ShortLink.Preview(title: "Eleven"))
            let spring = try #require(try await fixture.store.link(code: "spring"))
            #expect(spring.deepLink == "https://read.example.com/b/42?utm_source=poster&utm_campaign=spring")
            #expect(spring.route == "web.book")
            #expect(
                spring.fallbacks
                    == ShortLink.Fallbacks(
                        appStoreID: "1234567890",
                        playPackage: "com.example.reading",
                        web: "https://read.example.com/b/42?utm_source=poster&utm_campaign=spring"
                    )
            )
            #expect(
                spring.preview
                    == ShortLink.Preview(
                        title: "Spring sale",
                        description: "Half price",
                        imageURL: "https://read.example.com/cover.png"
                    )
            )
            // A campaign parameter the link sets itself is kept; the others are added.
            #expect(
                try await fixture.store.link(code: "kept")?.deepLink
                    == "https://read.example.com/b/5?utm_source=mine&utm_medium=email"
            )
            let generated = try await fixture.store.links(after: nil, limit: 10, containing: "books/7")
            #expect(
                generated.first?.fallbacks
                    == ShortLink.Fallbacks(
                        ios: "https://www.example.com/ios",
                        android: "https://www.example.com/android",
                        desktop: "https://www.example.com/desktop"
                    )
            )
            #expect(try await fixture.store.links(after: nil, limit: 10, containing: nil).count == 4)
        } catch {
            Issue.record(error)
        }
        await fixture.store.close()
    }

    @Test("A line may start with the short link written whole; a link on a short-link domain stays there")
    func shortLinksWrittenWhole() async throws {
        let fixture = try await ServiceFixture.make()
        let service = try DomainTests.service(fixture.store)
        let file = [
            // Teams' records: the short link, then the long one; a page.link code moves to the first domain.
            "https://readapp.page.link/Xyz,https://readapp.page.link/?link=readapp%3A%2F%2Fbooks%2F3",
            // A custom domain Firebase served, now pointed at the service: the link stays on it.
            "https://go.example.org/gohost\thttps://readapp.page.link/?link=readapp%3A%2F%2Fbooks%2F4",
            "https://go.example.org/?link=readapp%3A%2F%2Fbooks%2F5",
            "coded,https://GO.example.org/?link=readapp%3A%2F%2Fbooks%2F6",
            // No one-segment path: neither a code nor a short link.
            "https://readapp.page.link/a/b,https://readapp.page.link/?link=readapp%3A%2F%2Fbooks%2F7",
            // A comma of the long link's own keeps the line one link.
            "https://readapp.page.link/?link=readapp%3A%2F%2Fbooks%2F8&st=Spring,+again",
            // A third column would be read into the long link's last parameter: refused.
            "third\thttps://readapp.page.link/?link=readapp%3A%2F%2Fbooks%2F9\tSpring poster",
        ].joined(separator: "\n")
        do {
            try await Application(router: service.router()).test(.router) { client in
                let (status, report) = try await Self.post(
                    client,
                    "/api/links/import?format=fdl",
                    file,
                    token: fixture.token
                )
                #expect(status == .ok)
                #expect(report["imported"] as? Int == 5)
                let refusals = try #require(report["refusals"] as? [[String: Any]])
                #expect(refusals.map { $0["line"] as? Int } == [5, 7])
                #expect((refusals.first?["message"] as? String)?.contains("neither a code nor a short link") == true)
                #expect((refusals.last?["message"] as? String)?.contains("3 tab-separated fields") == true)
                // A code that leaves a host the service does not serve is counted, not moved unseen.
                let moved = "the short link's host readapp.page.link (not in shortLinks.domains: its code moved)"
                #expect((report["ignoredParameters"] as? [String: Int])?[moved] == 1)

                // A form around the file (curl -F) is refused whole, not read line by line.
                let form = "--b\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n\(file)\r\n--b--\r\n"
                try await client.execute(
                    uri: "/api/links/import?format=fdl",
                    method: .post,
                    headers: [
                        .authorization: "Bearer \(fixture.token)", .contentType: "multipart/form-data; boundary=b",
                    ],
                    body: ByteBuffer(string: form)
                ) { response in
                    #expect(response.status == .badRequest)
                    #expect(String(buffer: response.body).contains("send the file itself as the body"))
                }
            }
            let xyz = try #require(try await fixture.store.link(code: "xyz"))
            #expect(xyz.deepLink == "readapp://books/3" && xyz.domain == "links.example.com")
            #expect(try await fixture.store.link(code: "gohost")?.domain == "go.example.org")
            #expect(try await fixture.store.link(code: "coded")?.domain == "go.example.org")
            let made = try await fixture.store.links(after: nil, limit: 10, containing: "books/5")
            #expect(made.map(\.domain) == ["go.example.org"])
            let again = try await fixture.store.links(after: nil, limit: 10, containing: "books/8")
            #expect(again.first?.preview?.title == "Spring, again")
        } catch {
            Issue.record(error)
        }
        await fixture.store.close()
    }

    @Test("One import at a time on an instance; a service that stops refuses the lines left, unread")
    func importTurnsAndStops() async throws {
        let fixture = try await ServiceFixture.make()
        let api = fixture.service.admin
        do {
            try await Application(router: fixture.service.router()).test(.router) { client in
                #expect(api.importTurn.take())  // as another import does
                try await client.execute(
                    uri: "/api/links/import?format=jsonl",
                    method: .post,
                    headers: [.authorization: "Bearer \(fixture.token)"],
                    body: ByteBuffer(string: #"{"code": "one", "deepLink": "readapp://books/1"}"#)
                ) { response in
                    #expect(response.status == .tooManyRequests)
                    #expect(response.headers[.retryAfter] == "10")
                    #expect(String(buffer: response.body).contains("Another import is under way"))
                }
                api.importTurn.giveBack()
                let (status, report) = try await Self.post(
                    client,
                    "/api/links/import?format=jsonl",
                    #"{"code": "one", "deepLink": "readapp://books/1"}"#,
                    token: fixture.token
                )
                #expect(status == .ok && report["imported"] as? Int == 1)
                #expect(!api.importTurn.isTaken)  // the turn is given back
            }
            // Cancelled, as a request is when the service stops: nothing more is created.
            let outcomes = await Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await BulkCreation(api: api, importing: true).create([
                    .success(LinkInput(code: "two", deepLink: "readapp://books/2")),
                    .success(LinkInput(code: "three", deepLink: "readapp://books/3")),
                ])
            }.value
            #expect(outcomes.map(\.status) == [503, 503])
            #expect(outcomes.first?.error?.message.contains("send it again") == true)
            #expect(try await fixture.store.link(code: "two") == nil)
        } catch {
            Issue.record(error)
        }
        await fixture.store.close()
    }

    /// Links with every field, and text a CSV or a spreadsheet could trip on.
    static let variety: [LinkInput] = [
        LinkInput(code: "plain", deepLink: "readapp://books/1"),
        LinkInput(
            code: "full",
            domain: "links.example.com",
            deepLink: "https://read.example.com/b/2",
            fallbacks: ShortLink.Fallbacks(
                appStoreID: "1234567890",
                playPackage: "com.example.reading",
                web: "https://www.example.com/a,b?c=%22d%22",
                ios: "https://www.example.com/ios",
                android: "https://www.example.com/android",
                desktop: "https://www.example.com/desktop"
            ),
            preview: ShortLink.Preview(
                title: "=HYPERLINK(\"https://evil.example\")",
                description: "A comma, \"quotes\" — and ü",
                imageURL: "https://read.example.com/c.png"
            ),
            passQuery: false,
            expiresAt: Date(timeIntervalSince1970: 1_900_000_000)
        ),
        LinkInput(code: "-dash", deepLink: "readapp://books/3", preview: ShortLink.Preview(title: "-5% 'quoted'")),
        LinkInput(code: "quote", deepLink: "readapp://books/4", preview: ShortLink.Preview(title: "'=already guarded")),
        // Expired: an import brings it as it was.
        LinkInput(code: "gone", deepLink: "readapp://books/5", expiresAt: Date(timeIntervalSince1970: 1_600_000_000)),
    ]

    @Test(
        "Exporting then importing into an empty database gives the same links, as JSON lines and as CSV",
        arguments: LinkExport.Format.allCases
    )
    func roundTrip(format: LinkExport.Format) async throws {
        let source = try await ServiceFixture.make()
        let target = try await ServiceFixture.make()
        // The stores are closed whatever the checks find.
        do {
            try await Self.checkRoundTrip(format: format, from: source, to: target)
        } catch {
            Issue.record(error)
        }
        await source.store.close()
        await target.store.close()
    }

    static func checkRoundTrip(
        format: LinkExport.Format,
        from source: ServiceFixture,
        to target: ServiceFixture
    ) async throws {
        for input in variety { _ = try await source.service.admin.create(input, acceptingPastExpiry: true) }
        // Over one page, so the export's paging is crossed.
        for index in 0..<(LinkExport.pageSize + 3) {
            _ = try await source.service.admin.create(
                LinkInput(code: "bulk-\(index)", deepLink: "readapp://books/\(index)")
            )
        }
        var exported = ""
        try await source.service.exportLinks(as: format) { exported += $0 }
        if format == .csv {
            #expect(exported.hasPrefix(LinkCSV.columns.joined(separator: ",") + "\n"))
            // The formula is text in a spreadsheet.
            #expect(exported.contains(#""'=HYPERLINK(""https://evil.example"")""#))
            #expect(exported.contains("\n'-dash,") && exported.contains(",''=already guarded,"))
        }
        let report = try await target.service.importLinks(
            exported,
            as: LinkImport(format: format == .csv ? .csv : .jsonl)
        )
        #expect(report.refused == 0, "\(report.summary)")
        #expect(report.imported == variety.count + LinkExport.pageSize + 3)
        func content(_ store: SQLiteLinkStore) async throws -> [ShortLink] {
            try await store.links(after: nil, limit: 1_000, containing: nil).map { link in
                var link = link
                link.createdAt = Fixtures.now
                link.updatedAt = Fixtures.now
                return link
            }
        }
        let before = try await content(source.store)
        #expect(before.count == report.imported)
        #expect(try await content(target.store) == before)
    }

    @Test("GET /api/links/export streams every link; an unknown format is a 400; 'export' is no code")
    func exportEndpoint() async throws {
        let fixture = try await ServiceFixture.make()
        // The store is closed whatever the checks find.
        do {
            for input in Self.variety { _ = try await fixture.service.admin.create(input, acceptingPastExpiry: true) }
            try await Application(router: fixture.service.router()).test(.router) { client in
                let auth: HTTPFields = [.authorization: "Bearer \(fixture.token)"]
                try await client.execute(uri: "/api/links/export", method: .get, headers: auth) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "application/jsonl; charset=utf-8")
                    #expect(response.headers[.contentDisposition] == #"attachment; filename="waypoint-links.jsonl""#)
                    let lines = String(buffer: response.body).split(separator: "\n")
                    #expect(lines.count == 5)
                    #expect(lines.first?.hasPrefix(#"{"code":"-dash""#) == true)
                }
                try await client.execute(uri: "/api/links/export?format=CSV", method: .get, headers: auth) { response in
                    #expect(response.headers[.contentType] == "text/csv; charset=utf-8")
                    #expect(String(buffer: response.body).hasPrefix("code,domain,deepLink"))
                }
                try await client.execute(uri: "/api/links/export?format=xml", method: .get, headers: auth) {
                    #expect($0.status == .badRequest)
                }
                try await client.execute(uri: "/api/links/export", method: .get) { #expect($0.status == .unauthorized) }
                let (status, body) = try await Self.post(
                    client,
                    "/api/links",
                    #"{"code": "export", "deepLink": "readapp://books/1"}"#,
                    token: fixture.token
                )
                #expect(status == .badRequest)
                #expect((body["error"] as? [String: Any])?["code"] as? String == "invalidCode")
            }
        } catch {
            Issue.record(error)
        }
        await fixture.store.close()
    }

    @Test("A file run again makes no link twice: its lines, with a code or without, count as imported before")
    func importAgain() async throws {
        let fixture = try await ServiceFixture.make()
        // The store is closed whatever the checks find.
        do {
            let file = """
                coded,https://x.page.link/?link=readapp%3A%2F%2Fbooks%2F1&st=One
                https://x.page.link/?link=readapp%3A%2F%2Fbooks%2F2&utm_source=poster
                https://x.page.link/?link=readapp%3A%2F%2Fbooks%2F2&utm_source=poster
                https://x.page.link/?link=readapp%3A%2F%2Fbooks%2F3&utm_source=poster
                https://x.page.link/?link=readapp%3A%2F%2Fnowhere
                """
            let first = try await fixture.service.importLinks(file, as: LinkImport(format: .fdl))
            // The same link twice in one file is one link.
            #expect(first.imported == 3, "\(first.summary)")
            #expect(first.alreadyImported == 1)
            #expect(first.refusals.map(\.line) == [5])
            let stored = try await fixture.store.links(after: nil, limit: 10, containing: nil)
            #expect(stored.count == 3)
            // A line without a code gets one of the generator's shape, made from its link.
            let made = try #require(stored.first { $0.deepLink == "readapp://books/2?utm_source=poster" })
            #expect(made.code.count == CodeGenerator.length)
            #expect(made.code.unicodeScalars.allSatisfy(CodeGenerator.alphabet.contains))

            let again = try await fixture.service.importLinks(file, as: LinkImport(format: .fdl))
            #expect(again.imported == 0, "\(again.summary)")
            #expect(again.alreadyImported == 4)
            #expect(again.refusals.map(\.line) == [5])
            #expect(again.summary.hasPrefix("imported 0, already imported 4, refused 1\n"))
            #expect(try await fixture.store.links(after: nil, limit: 10, containing: nil) == stored)

            // A code taken by another link is refused as before; a changed line is a new link.
            let changed = """
                coded,https://x.page.link/?link=readapp%3A%2F%2Fbooks%2F1&st=Changed
                https://x.page.link/?link=readapp%3A%2F%2Fbooks%2F2&utm_source=email
                """
            let third = try await fixture.service.importLinks(changed, as: LinkImport(format: .fdl))
            #expect(third.imported == 1, "\(third.summary)")
            #expect(third.alreadyImported == 0)
            #expect(third.refusals.map(\.code) == [.codeTaken])
            #expect(try await fixture.store.link(code: "coded")?.preview?.title == "One")

            // A line without a code whose link was changed since is told so, not to pick a code.
            _ = try await fixture.service.admin.update(made.code, with: LinkInput(passQuery: false))
            let edited = try await fixture.service.importLinks(file, as: LinkImport(format: .fdl))
            #expect(edited.refusals.map(\.line) == [2, 3, 5])
            #expect(edited.refusals.first?.code == .codeTaken)
            #expect(edited.refusals.first?.message.contains("imported before as '\(made.code)'") == true)

            // An export imported where it came from is all there already, CSV and JSON lines alike.
            var exported = ""
            try await fixture.service.exportLinks(as: .csv) { exported += $0 }
            let back = try await fixture.service.importLinks(exported, as: LinkImport(format: .csv))
            #expect(back.imported == 0 && back.refused == 0 && back.alreadyImported == 4, "\(back.summary)")
            exported = ""
            try await fixture.service.exportLinks(as: .jsonl) { exported += $0 }
            let jsonl = try await fixture.service.importLinks(exported, as: LinkImport(format: .jsonl))
            #expect(jsonl.alreadyImported == 4 && jsonl.refused == 0, "\(jsonl.summary)")
        } catch {
            Issue.record(error)
        }
        await fixture.store.close()
    }

    @Test("A link's identity leaves out its code, route and dates, names its domain and keeps every other field")
    func linkIdentity() throws {
        let domains = LinkDomains(ShortLinkSettings(domains: ["links.example.com", "go.example.com"]))
        let link = ShortLink(code: "a", deepLink: "readapp://books/1", route: "book")
        let key = Array(repeating: UInt8(7), count: 32)
        func identity(_ link: ShortLink) -> LinkIdentity { LinkIdentity(of: link, domains: domains) }
        func code(_ link: ShortLink) -> String { identity(link).code(signedWith: key) }

        // The same link: another code, route name or dates, its domain named or left to the
        // first, an expiry within its second, empty preview text.
        var same = link
        same.code = "b"
        same.route = "renamed.book"
        same.domain = "links.example.com"
        same.createdAt = Date(timeIntervalSince1970: 5)
        same.updatedAt = Date(timeIntervalSince1970: 9)
        same.preview = ShortLink.Preview(title: "", description: "")
        #expect(identity(same) == identity(link))
        #expect(code(same) == code(link))
        var expiring = link
        expiring.expiresAt = Date(timeIntervalSince1970: 1_900_000_000.75)
        var expiringAsStored = link
        expiringAsStored.expiresAt = Date(timeIntervalSince1970: 1_900_000_000)
        #expect(identity(expiring) == identity(expiringAsStored))
        #expect(code(link) != identity(link).code(signedWith: [UInt8](repeating: 8, count: 32)))

        // Another link: any other field changed.
        let changes: [(inout ShortLink) -> Void] = [
            { $0.domain = "go.example.com" }, { $0.deepLink = "readapp://books/2" },
            { $0.fallbacks.appStoreID = "1" }, { $0.fallbacks.playPackage = "com.example.x" },
            { $0.fallbacks.web = "https://a.example" }, { $0.fallbacks.ios = "https://a.example" },
            { $0.fallbacks.android = "https://a.example" }, { $0.fallbacks.desktop = "https://a.example" },
            { $0.preview = ShortLink.Preview(title: "T") }, { $0.preview = ShortLink.Preview(description: "T") },
            { $0.preview = ShortLink.Preview(imageURL: "https://a.example/i.png") }, { $0.passQuery = false },
            { $0.expiresAt = Date(timeIntervalSince1970: 1_900_000_000) },
        ]
        let codes =
            [code(link)]
            + changes.map { change in
                var changed = link
                change(&changed)
                return code(changed)
            }
        #expect(Set(codes).count == changes.count + 1)

        // Every field of a link is in its identity or left out by name: a new field must be placed.
        func labels(_ value: Any) -> Set<String> { Set(Mirror(reflecting: value).children.compactMap(\.label)) }
        let named = Set(identity(link).fields.map(\.name))
        #expect(labels(link).subtracting(LinkIdentity.leftOut) == Set(named.map { String($0.prefix { $0 != "." }) }))
        #expect(Set(labels(link.fallbacks).map { "fallbacks." + $0 }).isSubset(of: named))
        #expect(Set(labels(ShortLink.Preview()).map { "preview." + $0 }).isSubset(of: named))
        #expect(CodeGenerator.make(fromDigest: Array(0..<32)) == CodeGenerator.make(fromDigest: Array(0..<32)))
        #expect(CodeGenerator.make(fromDigest: Array(0..<32)) != CodeGenerator.make(fromDigest: Array(1..<33)))
    }

    @Test("Windows line breaks, a byte order mark, form-encoded values and an existing query all read right")
    func fileDetails() async throws {
        let fixture = try await ServiceFixture.make()
        do {
            let file =
                "\u{FEFF}one,https://x.page.link/?link=https%3A%2F%2Fread.example.com%2Fb%2F1%3Fq%3Da%252Bb&st=Spring+sale%2B&utm_source=news\r\n"
                + "two,https://x.page.link/?link=readapp%3A%2F%2Fbooks%2F2\r\n"
            let report = try await fixture.service.importLinks(file, as: LinkImport(format: .fdl))
            #expect(report.imported == 2, "\(report.summary)")
            let one = try #require(try await fixture.store.link(code: "one"))
            // The link's own %2B stays as it was; the campaign parameter is appended.
            #expect(one.deepLink == "https://read.example.com/b/1?q=a%2Bb&utm_source=news")
            #expect(one.preview?.title == "Spring sale+")
            #expect(try await fixture.store.link(code: "two") != nil)
            // A character a hand-written file leaves unescaped reads as itself, and spoils nothing.
            let raw =
                "raw,https://x.page.link/?link=readapp%3A%2F%2Fbooks%2F8&st=Caf\u{E9} | 50%25 off {now}\\^&sd=100%sure%\n"
                + "hash,https://x.page.link/?link=https://read.example.com/b/9#ch2&st=Nine&isi=1234567890\n"
            let rawReport = try await fixture.service.importLinks(raw, as: LinkImport(format: .fdl))
            #expect(rawReport.imported == 2, "\(rawReport.summary)")
            let rawPreview = try await fixture.store.link(code: "raw")?.preview
            #expect(rawPreview == ShortLink.Preview(title: "Caf\u{E9} | 50% off {now}\\^", description: "100%sure%"))
            // A `#` left unescaped is the deep link's; the parameters after it are still read.
            let hash = try #require(try await fixture.store.link(code: "hash"))
            #expect(hash.deepLink == "https://read.example.com/b/9#ch2")
            #expect(hash.preview?.title == "Nine" && hash.fallbacks.appStoreID == "1234567890")
            // App Store Connect's `ct` becomes the campaign where the link names none; where it
            // names one, however written, `ct` is reported as passed over.
            let campaigns =
                "three,https://x.page.link/?link=readapp%3A%2F%2Fbooks%2F3&ct=spring+sale&pt=118330\n"
                + "four,https://x.page.link/?link=readapp%3A%2F%2Fbooks%2F4&ct=other&utm_campaign=spring\n"
                + "five,https://x.page.link/?link=readapp%3A%2F%2Fbooks%2F5%3Futm_campaign%3Dmine&ct=other\n"
                + "six,https://x.page.link/?link=readapp%3A%2F%2Fbooks%2F6&utm%5Fcampaign=enc&ct=other\n"
            let campaignReport = try await fixture.service.importLinks(campaigns, as: LinkImport(format: .fdl))
            #expect(campaignReport.imported == 4, "\(campaignReport.summary)")
            #expect(campaignReport.ignoredParameters == ["pt": 1, "ct (the link names its utm_campaign)": 3])
            #expect(
                try await fixture.store.link(code: "three")?.deepLink == "readapp://books/3?utm_campaign=spring%20sale"
            )
            #expect(try await fixture.store.link(code: "four")?.deepLink == "readapp://books/4?utm_campaign=spring")
            #expect(try await fixture.store.link(code: "five")?.deepLink == "readapp://books/5?utm_campaign=mine")
            #expect(try await fixture.store.link(code: "six")?.deepLink == "readapp://books/6?utm%5Fcampaign=enc")
            let jsonl =
                "\u{FEFF}" + #"{"code": "old", "deepLink": "readapp://books/3", "expiresAt": "2020-01-01T00:00:00Z"}"#
            let expired = try await fixture.service.importLinks(jsonl, as: LinkImport(format: .jsonl))
            #expect(expired.imported == 1, "\(expired.summary)")
            #expect(try await fixture.store.link(code: "old")?.isExpired(at: Date()) == true)
        } catch {
            Issue.record(error)
        }
        await fixture.store.close()
    }

    @Test("A CSV with an unknown column imports nothing; a bad row is refused alone")
    func csvErrors() async throws {
        let fixture = try await ServiceFixture.make()
        // The store is closed whatever the checks find.
        do {
            try await Application(router: fixture.service.router()).test(.router) { client in
                let (status, body) = try await Self.post(
                    client,
                    "/api/links/import?format=csv",
                    "code,deepLink,colour\na,readapp://books/1,red\n",
                    token: fixture.token
                )
                #expect(status == .badRequest)
                #expect(
                    ((body["error"] as? [String: Any])?["message"] as? String)?.contains("Unknown column 'colour'")
                        == true
                )
                let (ok, report) = try await Self.post(
                    client,
                    "/api/links/import?format=csv",
                    "code,deepLink,passQuery\na,readapp://books/1,true\nb,readapp://books/2,maybe\nc,readapp://books/3\n\nd,readapp://books/4,false\n",
                    token: fixture.token
                )
                #expect(ok == .ok)
                #expect(report["imported"] as? Int == 2)
                let refusals = try #require(report["refusals"] as? [[String: Any]])
                #expect(refusals.map { $0["line"] as? Int } == [3, 4])
                #expect((refusals[0]["message"] as? String)?.contains("'passQuery' is true or false") == true)
                #expect((refusals[1]["message"] as? String)?.contains("has 2 cells") == true)
                for (query, expected) in [
                    ("", "'format' is fdl, csv or jsonl"),
                    ("?format=xml", "'format' is fdl, csv or jsonl: say which the body is; 'xml' is not one."),
                    ("?format=fdl", "The body is empty"),
                ] {
                    let (status, body) = try await Self.post(
                        client,
                        "/api/links/import\(query)",
                        "",
                        token: fixture.token
                    )
                    #expect(status == .badRequest)
                    #expect(((body["error"] as? [String: Any])?["message"] as? String)?.contains(expected) == true)
                }
                let (jsonStatus, jsonReport) = try await Self.post(
                    client,
                    "/api/links/import?format=jsonl&domain=links.example.com",
                    #"{"code": "j1", "deepLink": "readapp://books/1", "url": "https://x/j1", "route": "book"}"# + "\n"
                        + #"{"code": "j2", "deepLink": "readapp://books/2", "colour": "red"}"# + "\nnot json\n",
                    token: fixture.token
                )
                #expect(jsonStatus == .ok)
                #expect(jsonReport["imported"] as? Int == 1)
                let jsonRefusals = try #require(jsonReport["refusals"] as? [[String: Any]])
                #expect(jsonRefusals.map { $0["line"] as? Int } == [2, 3])
            }
            #expect(try await fixture.store.link(code: "a") != nil)
            #expect(try await fixture.store.link(code: "j1")?.domain == "links.example.com")
        } catch {
            Issue.record(error)
        }
        await fixture.store.close()
    }

    @Test("CSV records are found where CSVReader ends them; blank lines cost nothing and count for no limit")
    func csvRecordStarts() throws {
        let text = "code,deepLink\r\n\n\"a\nb\",x\r\r\nc,\"d\"\"\"\n" + String(repeating: "\n", count: 10_000) + "e,f"
        #expect(
            try CSVRecords.starts(of: text, limit: 3).map { [$0.record, $0.line] }
                == [[0, 1], [2, 3], [4, 6], [10_005, 10_007]]
        )
        #expect(throws: LinkServiceError.self) { try CSVRecords.starts(of: text, limit: 2) }
    }

    @Test("A malformed CSV quote, an over-long file and a misspelled domain import nothing and say where")
    func wholeFileRefusals() async throws {
        let fixture = try await ServiceFixture.make()
        // The store is closed whatever the checks find.
        do {
            try await Application(router: fixture.service.router()).test(.router) { client in
                let header = "code,deepLink,title\n"
                let malformed: [(file: String, status: HTTPResponse.Status, message: String)] = [
                    // CSVReader alone would read everything after the open quote as one cell.
                    (
                        header + "q1,readapp://books/1,Spring\nq2,\"readapp://books/2,Autumn\nq3,readapp://books/3,x\n",
                        .badRequest, "Line 3: the quote that opens a cell there is never closed"
                    ),
                    // ... and would drop the "b" after the closing quote.
                    (
                        header + "q1,readapp://books/1,\"Best\"b\n", .badRequest,
                        "Line 2: 'b' follows the quote that closes a cell"
                    ),
                    (
                        String(repeating: "https://x.page.link/?link=readapp%3A%2F%2Fbooks%2F1\n", count: 50_001),
                        .badRequest, "The file holds over 50000 links"
                    ),
                ]
                for (index, (file, expectedStatus, expected)) in malformed.enumerated() {
                    let format = index < 2 ? "csv" : "fdl"
                    let (status, body) = try await Self.post(
                        client,
                        "/api/links/import?format=\(format)",
                        file,
                        token: fixture.token
                    )
                    #expect(status == expectedStatus)
                    let message = (body["error"] as? [String: Any])?["message"] as? String
                    #expect(message?.contains(expected) == true, "\(message ?? "no message")")
                }
                let (domainStatus, domainBody) = try await Self.post(
                    client,
                    "/api/links/import?format=fdl&domain=links.exampel.com",
                    "https://x.page.link/?link=readapp%3A%2F%2Fbooks%2F1\n",
                    token: fixture.token
                )
                #expect(domainStatus == .badRequest)
                #expect(
                    ((domainBody["error"] as? [String: Any])?["message"] as? String)?.contains(
                        "'links.exampel.com' is not"
                    )
                        == true
                )
                // A cell spanning lines: the rows after it are numbered by the lines they start on.
                let (status, report) = try await Self.post(
                    client,
                    "/api/links/import?format=csv",
                    header
                        + "m1,readapp://books/1,\"Two\nlines\"\r\nm2,readapp://books/2,\"Say \"\"hi\"\"\"\nm3,nowhere://x,\n",
                    token: fixture.token
                )
                // m1's title holds a line break, which a preview refuses; m3's link leads nowhere.
                #expect(status == .ok)
                #expect(report["imported"] as? Int == 1)
                #expect((report["refusals"] as? [[String: Any]])?.map { $0["line"] as? Int } == [2, 5])
            }
            #expect(try await fixture.store.link(code: "q1") == nil)
            #expect(try await fixture.store.link(code: "m2")?.preview?.title == #"Say "hi""#)
            // A title may hold U+2028, which Unicode counts as a line break: JSON lines end at "\n" only.
            let separated = #"{"code": "u1", "deepLink": "readapp://books/1", "preview": {"title": "One\#u{2028}two"}}"#
            let report = try await fixture.service.importLinks(separated, as: LinkImport(format: .jsonl))
            #expect(report.imported == 1, "\(report.summary)")
            #expect(try await fixture.store.link(code: "u1")?.preview?.title == "One\u{2028}two")
        } catch {
            Issue.record(error)
        }
        await fixture.store.close()
    }
}
