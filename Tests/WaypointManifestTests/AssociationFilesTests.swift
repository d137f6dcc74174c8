import Foundation
import Testing
import WaypointManifest

@Suite("Association files: the bytes the tool prints and the link service serves")
struct AssociationFilesTests {
    static let manifest = """
        domains: [example.com]
        appIDs: [Q4NR7XW2LM.com.example.app]
        android:
          package: com.example.app
          fingerprints: ["\(Array(repeating: "AB", count: 32).joined(separator: ":"))"]
        routes:
          - name: product
            pattern: /products/{id:int}
        """

    @Test("apple-app-site-association names the app and the route, with sorted keys")
    func appleFile() throws {
        let files = AssociationFiles(manifest: try ManifestLoader.parse(Self.manifest))
        let data = try files.appleAppSiteAssociation(for: "example.com")
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""appIDs" : ["#) && text.contains("Q4NR7XW2LM.com.example.app"))
        #expect(text.contains(#""/" : "/products/?*""#))
        #expect(text.firstRange(of: "applinks") != nil)
        // The same manifest gives the same bytes.
        #expect(try files.appleAppSiteAssociation(for: "example.com") == data)
    }

    @Test("assetlinks.json carries the package and its fingerprints")
    func androidFile() throws {
        let files = AssociationFiles(manifest: try ManifestLoader.parse(Self.manifest))
        let json = try JSONSerialization.jsonObject(with: try files.assetLinks()) as? [[String: Any]]
        let target = json?.first?["target"] as? [String: Any]
        #expect(target?["package_name"] as? String == "com.example.app")
        #expect((target?["sha256_cert_fingerprints"] as? [String])?.count == 1)
    }

    @Test("Each way a file cannot be made has its code and a message to act on")
    func errors() throws {
        let files = AssociationFiles(manifest: try ManifestLoader.parse(Self.manifest))
        #expect(throws: AssociationFileError.self) { try files.appleAppSiteAssociation(for: "exa mple.com") }
        do {
            _ = try files.appleAppSiteAssociation(for: "exa mple.com")
        } catch {
            #expect(error.code == .invalidDomain)
        }
        let bare = AssociationFiles(manifest: try ManifestLoader.parse("routes:\n  - name: a\n    pattern: /a\n"))
        do {
            _ = try bare.appleAppSiteAssociation(for: "example.com")
            Issue.record("a manifest without appIDs made a file")
        } catch {
            #expect(error.code == .noAppIDs)
        }
        do {
            _ = try bare.assetLinks()
            Issue.record("a manifest without an android section made assetlinks.json")
        } catch {
            #expect(error.code == .noAndroidApp)
            #expect(error.message.contains("'android'"))
        }
    }

    @Test("A file over Apple's 128 KB is refused, and the error carries it")
    func tooLarge() throws {
        // 1,500 routes with 80-byte literals: about 150 KB of components.
        let literal = String(repeating: "x", count: 80)
        let routes = (0..<1_500).map { "  - name: r\($0)\n    pattern: /\(literal)/\($0)\n" }.joined()
        let manifest = "domains: [example.com]\nappIDs: [Q4NR7XW2LM.com.example.app]\nroutes:\n" + routes
        let files = AssociationFiles(manifest: try ManifestLoader.parse(manifest))
        do {
            _ = try files.appleAppSiteAssociation(for: "example.com")
            Issue.record("a file over the limit was made")
        } catch {
            #expect(error.code == .tooLarge)
            #expect((error.file?.count ?? 0) > AssociationFiles.appleSizeLimit)
            #expect(error.message.hasPrefix("example.com: "))
        }
    }
}

@Suite("Short links: the manifest's shortLinks domain")
struct ShortLinkDomainTests {
    static let manifest = """
        domains: [example.com, links.example.com]
        appIDs: [Q4NR7XW2LM.com.example.app]
        shortLinks:
          domain: Links.Example.com
        routes:
          - name: product
            pattern: /products/{id:int}
        """

    @Test("The short-link domain's file claims every path but the service's own, after the routes")
    func shortLinkFile() throws {
        let files = AssociationFiles(manifest: try ManifestLoader.parse(Self.manifest))
        let links = try JSONSerialization.jsonObject(with: try files.appleAppSiteAssociation(for: "links.example.com"))
        let details = ((links as? [String: Any])?["applinks"] as? [String: Any])?["details"] as? [[String: Any]]
        let components = try #require(details?.first?["components"] as? [[String: Any]])
        let paths = components.map { ($0["/"] as? String ?? "", $0["exclude"] as? Bool ?? false) }
        // The route's one-segment guard, then the route.
        #expect(paths.count > 2 && paths[0] == ("/products/?*/?*", true) && paths[1] == ("/products/?*", false))
        #expect(try #require(paths.last) == ("/?*", false))
        for service in ["/api", "/api/*", "/health", "/metrics", "/c/*", "/admin", "/admin/*", "/.well-known/*"] {
            #expect(paths.contains { $0 == (service, true) }, "\(service)")
        }
        // The app's other domain is unchanged: its links are its routes only.
        let main = String(decoding: try files.appleAppSiteAssociation(for: "example.com"), as: UTF8.self)
        #expect(!main.contains(#""/?*""#))
    }

    @Test("A short-link domain must be one of the domains, and not a wildcard")
    func mustBeAssociated() throws {
        for (domains, domain) in [("[example.com]", "links.example.com"), ("[\"*.example.com\"]", "\"*.example.com\"")]
        {
            let text = "domains: \(domains)\nshortLinks:\n  domain: \(domain)\nroutes: []\n"
            do {
                _ = try ManifestLoader.parse(text, file: "m.yaml")
                Issue.record("\(domain) was taken")
            } catch {
                #expect(error.description.hasPrefix("m.yaml:3:11: The short-link domain "))
                #expect(error.description.contains("must be one of 'domains', listed as it is (not a wildcard"))
            }
        }
        #expect(throws: ManifestError.self) {
            try ManifestLoader.parse("domains: [a.com]\nshortLinks: {}\nroutes: []\n")
        }
    }

    @Test("Several short-link domains: each one's file claims the codes; mistakes fail loading")
    func severalDomains() throws {
        let text = """
            domains: [example.com, links.example.com, go.example.com]
            appIDs: [Q4NR7XW2LM.com.example.app]
            shortLinks:
              domains: [links.example.com, Go.Example.com]
            routes: []
            """
        let manifest = try ManifestLoader.parse(text)
        #expect(manifest.shortLinks?.domains == ["links.example.com", "Go.Example.com"])
        #expect(manifest.shortLinks?.domain == "links.example.com")
        let files = AssociationFiles(manifest: manifest)
        for host in ["links.example.com", "go.example.com"] {
            let file = String(decoding: try files.appleAppSiteAssociation(for: host), as: UTF8.self)
            #expect(file.contains(#""/?*""#), "\(host)")
        }
        #expect(
            !String(decoding: try files.appleAppSiteAssociation(for: "example.com"), as: UTF8.self).contains(#""/?*""#)
        )
        func message(_ shortLinks: String) -> String {
            do {
                _ = try ManifestLoader.parse(
                    "domains: [a.com, b.com]\nshortLinks: \(shortLinks)\nroutes: []\n",
                    file: "m.yaml"
                )
                return ""
            } catch {
                return error.description
            }
        }
        #expect(message("{domains: [a.com, A.com]}").contains("'A.com' is listed twice"))
        #expect(message("{domain: a.com, domains: [b.com]}").contains("not both"))
        #expect(message("{domains: []}").contains("names at least one host"))
        #expect(message("{domains: [a.com, c.com]}").contains("'c.com' must be one of 'domains'"))
        // Under a wildcard is not listed: the app's entitlement names the wildcard, not this host.
        let wildcard = try? ManifestLoader.parse(
            "domains: [a.com, \"*.b.com\"]\nshortLinks: {domains: [go.b.com]}\nroutes: []\n"
        )
        #expect(wildcard == nil)
    }

    /// A manifest with one short-link domain and `setting` (one line of `shortLinks`), no routes.
    static func shortLinksManifest(_ setting: String? = nil) -> String {
        """
        domains: [example.com, links.example.com]
        appIDs: [Q4NR7XW2LM.com.example.app]
        shortLinks:
          domains: [links.example.com]
        \(setting.map { "  \($0)\n" } ?? "")routes: []
        """
    }

    @Test("imageHosts: where previews may be, read and checked as domains; no association file names them")
    func imageHosts() throws {
        let text = Self.shortLinksManifest(#"imageHosts: [cdn.example.net, "*.images.example"]"#)
        let manifest = try ManifestLoader.parse(text)
        #expect(manifest.shortLinks?.imageHosts == ["cdn.example.net", "*.images.example"])
        #expect(try ManifestLoader.parse(Self.shortLinksManifest()).shortLinks?.imageHosts == [])
        let file = String(
            decoding: try AssociationFiles(manifest: manifest).appleAppSiteAssociation(for: "links.example.com"),
            as: UTF8.self
        )
        #expect(!file.contains("cdn.example.net") && !file.contains("images.example"))
        do {
            _ = try ManifestLoader.parse(
                text.replacingOccurrences(of: "cdn.example.net", with: "https://cdn.example.net/")
            )
            Issue.record("a URL was taken for an image host")
        } catch {
            #expect(error.description.contains("is not a domain"), "\(error.description)")
        }
    }

    @Test("longLinks: the short-link domains' files claim the root with a 'link', before the codes; off by default")
    func longLinks() throws {
        let text = Self.shortLinksManifest("longLinks: true")
        let manifest = try ManifestLoader.parse(text)
        #expect(manifest.shortLinks?.longLinks == true)
        let files = AssociationFiles(manifest: manifest)
        let links = try JSONSerialization.jsonObject(with: try files.appleAppSiteAssociation(for: "links.example.com"))
        let details = ((links as? [String: Any])?["applinks"] as? [String: Any])?["details"] as? [[String: Any]]
        let components = try #require(details?.first?["components"] as? [[String: Any]])
        let root = try #require(components.firstIndex { $0["/"] as? String == "/" })
        #expect(components[root]["?"] as? [String: String] == ["link": "?*"])
        #expect(components[root]["exclude"] == nil)
        #expect(root < (components.firstIndex { $0["/"] as? String == "/?*" } ?? 0))
        // As iOS decides: the root opens the app with a 'link' only.
        let checker = AASAChecker(document: AASAGenerator(manifest: manifest).document(for: "links.example.com"))
        #expect(checker.check("https://links.example.com/?link=readapp%3A%2F%2Fbooks%2F7&isi=1").opensApp)
        #expect(!checker.check("https://links.example.com/?isi=1").opensApp)
        #expect(!checker.check("https://links.example.com/?link=&isi=1").opensApp)
        #expect(!checker.check("https://links.example.com/").opensApp)
        #expect(!checker.check("https://links.example.com/api/links?link=x").opensApp)
        #expect(checker.check("https://links.example.com/spring").opensApp)
        // Only on the short-link domains, and only when asked for.
        let main = String(decoding: try files.appleAppSiteAssociation(for: "example.com"), as: UTF8.self)
        #expect(!main.contains(#""link""#))
        let off = try ManifestLoader.parse(Self.shortLinksManifest())
        #expect(off.shortLinks?.longLinks == false)
        let offFile = String(
            decoding: try AssociationFiles(manifest: off).appleAppSiteAssociation(for: "links.example.com"),
            as: UTF8.self
        )
        #expect(!offFile.contains(#""link""#))
        // A case-insensitive router makes the file so: `LINK=` would open the app, which reads `link` only.
        let caseless = try ManifestLoader.parse(text + "\npolicy: {caseSensitive: false}")
        let caselessChecker = AASAChecker(
            document: AASAGenerator(manifest: caseless).document(for: "links.example.com")
        )
        #expect(caselessChecker.check("https://links.example.com/?link=x").opensApp)
        #expect(!caselessChecker.check("https://links.example.com/?LINK=x").opensApp)
        #expect(caselessChecker.check("https://links.example.com/SPRING").opensApp)
        do {
            _ = try ManifestLoader.parse(
                text.replacingOccurrences(of: "longLinks: true", with: "longLinks: yes please")
            )
            Issue.record("'yes please' was taken for a switch")
        } catch {
            #expect(error.description.contains("'shortLinks.longLinks' must be true or false."))
        }
        do {
            _ = try ManifestLoader.parse(text.replacingOccurrences(of: "longLinks: true", with: "longLink: true"))
            Issue.record("a misspelled key was taken")
        } catch {
            #expect(error.description.contains("Did you mean 'longLinks'?"))
        }
    }
}
