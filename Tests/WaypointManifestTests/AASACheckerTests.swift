import Foundation
import Testing
import Waypoint

@testable import WaypointManifest

@Suite("apple-app-site-association semantics, as iOS applies them")
struct AASACheckerTests {
    func checker(_ json: String) throws -> AASAChecker {
        let (document, problems) = AASADocument.parse(Data(json.utf8))
        #expect(problems.isEmpty, "\(problems)")
        return AASAChecker(document: try #require(document))
    }

    func opens(_ checker: AASAChecker, _ path: String) -> Bool {
        checker.check("https://example.com" + path).opensApp
    }

    @Test("Wildcards: * zero or more, ? exactly one, ?* one or more")
    func wildcards() throws {
        #expect(try AASAPattern("/a/*").matches("/a/"))
        #expect(try AASAPattern("/a/*").matches("/a/b/c"))
        #expect(try !AASAPattern("/a/?").matches("/a/"))
        #expect(try AASAPattern("/a/?").matches("/a/b"))
        #expect(try !AASAPattern("/a/?").matches("/a/bc"))
        #expect(try !AASAPattern("/a/?*").matches("/a/"))
        #expect(try AASAPattern("/a/?*").matches("/a/bc"))
        #expect(try AASAPattern("*").matches(""))
    }

    @Test("First match wins; exclude stops the link; no match does not open")
    func order() throws {
        let checker = try checker(
            #"{"applinks":{"details":[{"appIDs":["Q4NR7XW2LM.com.example.app"],"components":[{"/":"/help/private/*","exclude":true},{"/":"/help/*"}]}]}}"#
        )
        #expect(opens(checker, "/help/faq"))
        let excluded = checker.check("https://example.com/help/private/x")
        #expect(!excluded.opensApp && excluded.excluded && excluded.location == "applinks.details[0].components[0]")
        #expect(!opens(checker, "/shop"))
        // Universal links are "standard HTTP or HTTPS links" (Apple): plain http is checked the same way.
        #expect(checker.check("http://example.com/help/faq").opensApp)
    }

    @Test("Query as a pattern or name → pattern; fragment")
    func queryAndFragment() throws {
        let checker = try checker(
            ##"{"applinks":{"details":[{"appIDs":["Q4NR7XW2LM.com.example.app"],"components":[{"/":"/q","?":{"ref":"?*","mode":"a*"}},{"/":"/w","?":"x=*"},{"/":"/f","#":"top"}]}]}}"##
        )
        #expect(opens(checker, "/q?mode=all&ref=1"))
        #expect(!opens(checker, "/q?ref=1"))
        #expect(!opens(checker, "/q?ref=&mode=a"))
        #expect(opens(checker, "/w?x=1"))
        #expect(!opens(checker, "/w?y=1"))
        #expect(opens(checker, "/f#top"))
        #expect(!opens(checker, "/f#bottom"))
    }

    @Test("caseSensitive and percentEncoded default to true and come from three levels")
    func defaults() throws {
        let file =
            #"{"applinks":{"defaults":{"caseSensitive":false},"details":[{"appIDs":["Q4NR7XW2LM.com.example.app"],"defaults":{"percentEncoded":false},"components":[{"/":"/Café"},{"/":"/Strict","caseSensitive":true}]}]}}"#
        let checker = try checker(file)
        #expect(opens(checker, "/caf%C3%A9"))  // decoded (details level), then compared case-insensitively (file level)
        #expect(opens(checker, "/CAF%C3%89"))  // case folding is Unicode-aware: É folds to é
        #expect(opens(checker, "/Strict"))
        #expect(!opens(checker, "/strict"))  // the component's own setting wins
        let plain = try self.checker(
            #"{"applinks":{"details":[{"appIDs":["Q4NR7XW2LM.com.example.app"],"components":[{"/":"/a%20b"},{"/":"/Up"}]}]}}"#
        )
        #expect(opens(plain, "/a%20b"))
        #expect(!opens(plain, "/up"))
    }

    @Test("Substitution variables, custom and predefined")
    func variables() throws {
        let checker = try checker(
            #"{"applinks":{"substitutionVariables":{"section":["books","films"]},"details":[{"appIDs":["Q4NR7XW2LM.com.example.app"],"components":[{"/":"/$(section)/?*"},{"/":"/$(lang)/help"},{"/":"/v$(digit)/*"},{"/":"/$(region)/store"}]}]}}"#
        )
        #expect(opens(checker, "/books/1"))
        #expect(!opens(checker, "/music/1"))
        #expect(opens(checker, "/fr/help"))
        #expect(opens(checker, "/v2/x"))
        #expect(!opens(checker, "/v22/x"))
        #expect(opens(checker, "/CN/store"))
        let (_, problems) = AASADocument.parse(
            Data(
                #"{"applinks":{"details":[{"appIDs":["Q4NR7XW2LM.com.example.app"],"components":[{"/":"/$(nope)"}]}]}}"#
                    .utf8
            )
        )
        #expect(
            problems.map(\.description) == [
                "error: applinks.details[0].components[0]./: The pattern '/$(nope)' uses the substitution variable "
                    + "$(nope), which is not defined."
            ]
        )
    }

    @Test("The legacy paths form, with NOT")
    func legacy() throws {
        let checker = try checker(
            #"{"applinks":{"apps":[],"details":[{"appID":"Q4NR7XW2LM.com.example.app","paths":["NOT /old/*","/*"]}]}}"#
        )
        #expect(opens(checker, "/new"))
        #expect(!opens(checker, "/old/page"))
        #expect(checker.check("https://example.com/new").appID == "Q4NR7XW2LM.com.example.app")
    }

    @Test("Problems: size, structure, types")
    func problems() {
        let large =
            #"{"applinks":{"details":[{"appIDs":["Q4NR7XW2LM.com.example.app"],"components":[{"/":"/"#
            + String(repeating: "a", count: 140_000) + #""}]}]}}"#
        let (_, tooLarge) = AASADocument.parse(Data(large.utf8))
        #expect(tooLarge.first?.message.hasSuffix("Apple reads at most 131072 (128 KB).") == true)
        #expect(
            AASADocument.parse(Data("[]".utf8)).problems.map(\.message) == [
                "The file's top level is an array; it must be an object such as {\"applinks\": {…}}."
            ]
        )
        // A file that is not JSON at all says so, with Foundation's account of where it breaks.
        let broken = AASADocument.parse(Data(#"{"applinks": "#.utf8)).problems.map(\.message)
        #expect(broken.count == 1)
        #expect(broken.first?.hasPrefix("The file is not valid JSON") == true)
        #expect(broken.first?.hasSuffix("Apple ignores a file it cannot read.") == true)
        #expect(
            AASADocument.parse(Data("{}".utf8)).problems.map(\.message) == [
                "The file declares no service: add 'applinks' for universal links (or 'webcredentials', 'appclips', "
                    + "'activitycontinuation')."
            ]
        )
        let (_, types) = AASADocument.parse(
            Data(
                #"{"applinks":{"details":[{"appIDs":["Q4NR7XW2LM.com.example.app"],"components":[{"exclude":"yes","?":3}]}]}}"#
                    .utf8
            )
        )
        #expect(
            types.map(\.description) == [
                "error: applinks.details[0].components[0].?: must be a string or an object of strings.",
                "error: applinks.details[0].components[0].exclude: must be true or false.",
            ]
        )
    }

    @Test("Matching agrees with a regular expression on random patterns and texts, either case setting")
    func agreesWithRegularExpressions() throws {
        // A SplitMix generator with a fixed seed: the same cases on every run.
        var state: UInt64 = 0xAA5A_0001
        func random(_ count: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((value ^ (value >> 31)) % UInt64(count))
        }
        // Each pattern piece with the regular expression it stands for.
        let variables = ["v": ["ab", "b?", "A", "", "?*b"]]
        let pieces: [(pattern: String, regex: String)] = [
            ("a", "a"), ("b", "b"), ("A", "A"), ("/", "/"), ("*", ".*"), ("?", "."),
            ("$(v)", "(?:ab|b.|A||.+b)"), ("$(upper)", "[A-Z]"), ("$(digit)", "[0-9]"),
            // A `$` not opening a variable is itself; a non-ASCII letter sends the whole pattern
            // through the general (not the ASCII) reading.
            ("$", "\\$"), ("É", "É"), ("é", "é"),
        ]
        let letters = ["a", "b", "A", "B", "1", "/", "$", "é", "É"]
        var compared = 0
        var matched = 0
        for _ in 0..<1_500 {
            let chosen = (0..<random(6)).map { _ in pieces[random(pieces.count)] }
            let pattern = try AASAPattern(chosen.map(\.pattern).joined(), variables: variables)
            let regex = "^" + chosen.map(\.regex).joined() + "$"
            let exact = try NSRegularExpression(pattern: regex)
            let folded = try NSRegularExpression(pattern: regex, options: .caseInsensitive)
            for _ in 0..<20 {
                let text = (0..<random(8)).map { _ in letters[random(letters.count)] }.joined()
                let range = NSRange(text.startIndex..., in: text)
                for (caseSensitive, expression) in [(true, exact), (false, folded)] {
                    let expected = expression.firstMatch(in: text, range: range) != nil
                    #expect(
                        pattern.matches(text, caseSensitive: caseSensitive) == expected,
                        "'\(pattern.text)' on '\(text)', caseSensitive: \(caseSensitive)"
                    )
                    compared += 1
                    if expected { matched += 1 }
                }
            }
        }
        #expect(compared == 60_000)
        #expect(matched > 3_000)
    }

    @Test("A hostile pattern stays fast: matching is polynomial")
    func hostilePattern() throws {
        let pattern = try AASAPattern(String(repeating: "*a", count: 40) + "b")
        let text = String(repeating: "a", count: 200)
        let start = Date()
        #expect(!pattern.matches(text))
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test("The generated file opens every universal-link route and excludes what the manifest excludes")
    func generatedCoversRoutes() throws {
        let manifest = try ManifestLoader.load(file: ToolRunner.manifest("apartments.yaml"))
        let checker = AASAChecker(document: AASAGenerator(manifest: manifest).document(for: "apartments.example.com"))
        for path in ["/activity", "/messages", "/messages/12", "/request/3", "/listings/new"] {
            #expect(opens(checker, path), "\(path)")
        }
        #expect(!opens(checker, "/admin/panel"))
    }

    @Test("The generated file opens the app for exactly the depths the routes take: a parameter is one segment")
    func generatedKeepsParametersToOneSegment() throws {
        let manifest = try ManifestLoader.parse(
            """
            domains: [shop.example.com]
            appIDs: [ABCDE12345.com.example.shop]
            routes:
              - {name: product, pattern: "/products/{id:int}"}
              - {name: reviews, pattern: "/products/{id:int}/reviews"}
              - {name: orders, pattern: /orders}
              - {name: docs, pattern: "/docs/**"}
              - {name: pair, pattern: "/{a}/{b}"}
            """
        )
        let generator = AASAGenerator(manifest: manifest)
        let checker = AASAChecker(document: generator.document(for: "shop.example.com"))
        let router = try manifest.makeRouter()
        // Every path the router matches opens the app, and every other one does not: the router
        // and the file agree, one segment for each parameter.
        let paths = [
            "/products/12", "/products/12/", "/products/12/reviews", "/products/12/photos", "/products/12/reviews/x",
            "/orders", "/orders/", "/orders/7", "/docs", "/docs/a/b/c", "/x/y", "/x/y/z", "/a/b/c/d",
        ]
        for path in paths {
            let routed = router.match(try DeepLink("https://shop.example.com\(path)")) != nil
            #expect(opens(checker, path) == routed, "\(path): routed \(routed)")
        }
        #expect(opens(checker, "/products/12/reviews"))
        #expect(!opens(checker, "/products/12/photos"))
    }
}
