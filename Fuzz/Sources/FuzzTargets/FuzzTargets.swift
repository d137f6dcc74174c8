// libFuzzer entry point. One binary, several targets: `WAYPOINT_FUZZ_TARGET` names the one to run
// (link, pattern, router, manifest, aasa, payload). Each target feeds the input to a parser that
// untrusted input reaches, then checks what must hold for any input; a broken rule traps, which
// libFuzzer reports as a crash with the input that caused it.
import Foundation
import Waypoint
import WaypointManifest

enum FuzzTarget: String, CaseIterable {
    case link, pattern, router, manifest, aasa, payload

    static let selected: FuzzTarget? = ProcessInfo.processInfo.environment["WAYPOINT_FUZZ_TARGET"]
        .flatMap(FuzzTarget.init(rawValue:))
}

/// Runs one input through the selected target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    // Invalid UTF-8 becomes U+FFFD here, as it would in any `String` an app hands Waypoint.
    let text = String(decoding: bytes, as: UTF8.self)
    switch FuzzTarget.selected {
    case .link: fuzzLink(text)
    case .pattern: fuzzPattern(text)
    case .router: fuzzRouter(text)
    case .manifest: fuzzManifest(text)
    case .aasa: fuzzAASA(bytes)
    case .payload: fuzzPayload(text)
    case nil:
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("Set WAYPOINT_FUZZ_TARGET to one of: \(names).\n".utf8))
        exit(2)
    }
    return 0
}

/// Traps with a message: what libFuzzer catches as a finding.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        FileHandle.standardError.write(Data("broken rule: \(message())\n".utf8))
        abort()
    }
}

/// A fixed app: custom scheme, associated domains, typed routes, a catch-all under /files.
let fixture: (resolver: LinkResolver<String>, intake: LinkIntake)? = {
    var builder = RouterBuilder<String>(configuration: RouterConfiguration(linkScheme: "myapp"))
    do {
        for (name, pattern) in [
            ("messages.detail", "/messages/{id:int}"), ("users", "/users/{name}"), ("users.new", "/users/new"),
            ("users.edit", "/users/{id}/edit"), ("files", "/files/**"), ("any", "/a/*/b"),
            ("pay", "myapp://pay"), ("book", "https://example.com/books/{id:uuid}(/page/{page:int})"),
        ] {
            try builder.add(name, pattern, value: name)
        }
        let policy = LinkPolicy(
            schemes: ["myapp"],
            associatedDomains: ["example.com", "*.example.org"],
            passThroughHosts: ["blog.example.com"]
        )
        let intake = LinkIntake(
            policy: policy,
            notificationRules: [
                NotificationRule(.present("data.messageId"), link: "/messages/{data.messageId}"),
                NotificationRule(.equals("aps.category", "bookDetail"), link: "/books/{book_id}"),
            ],
            webMessages: [WebMessageRoute(name: "openLink")],
            webOrigins: ["example.com"]
        )
        return (LinkResolver(router: try builder.build(), policy: policy), intake)
    } catch {
        return nil
    }
}()

func fuzzLink(_ text: String) {
    guard let fixture else { return }
    if let link = try? DeepLink(text) {
        require(link.pathSegments.count <= LinkLimits.default.maxSegments, "more segments than the limit: \(text)")
        require(link.queryItems.count <= LinkLimits.default.maxQueryItems, "more query items than the limit: \(text)")
        // A link's own text parses to the same link.
        let again = try? DeepLink(link.string)
        require(again?.pathSegments == link.pathSegments, "re-parsing changed the path: \(text)")
    }
    if let lenient = try? DeepLink(text: text) {
        for match in fixture.resolver.router.candidates(for: lenient) {
            for parameter in match.parameters { _ = parameter.value.stringValue }
        }
    }
    switch fixture.resolver.resolve(text) {
    case .matched(let match):
        // A route that matched builds a link that matches it again with the same parameters.
        let router = fixture.resolver.router
        let wildcards = match.wildcards
        if let rebuilt = try? router.link(for: match.route.name, match.parameters.dictionary, wildcards: wildcards) {
            let again = router.match(rebuilt)
            require(again?.route.name == match.route.name, "reverse routing lost the route: \(text) → \(rebuilt)")
        }
    case .notFound, .forbidden, .passThrough, .invalid:
        break
    }
    _ = fixture.resolver.resolve(text: text)
    _ = fixture.resolver.webNavigationDecision(for: text)
    _ = fixture.intake.text(text)
}

func fuzzPattern(_ text: String) {
    guard let pattern = try? RoutePattern(text) else { return }
    var builder = RouterBuilder<Int>()
    builder.add(Route(name: "fuzzed", pattern: pattern, value: 0))
    guard let router = try? builder.build() else { return }
    // Every expansion of the pattern builds a link for sample values, and that link matches the route.
    var values: [String: ParameterValue] = [:]
    for case .parameter(let name, let type) in pattern.expansions.joined() {
        values[name] =
            switch type {
            case .int: .int(1)
            case .uuid: .uuid(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)))
            case .bool: .bool(true)
            case .double: .double(2.5)
            case .string: .string("a b/c%")
            }
    }
    if let link = try? router.link(for: "fuzzed", values) {
        require(router.match(link) != nil, "a pattern's own link does not match it: \(text) → \(link)")
    }
}

func fuzzRouter(_ text: String) {
    // Lines that start with "/" or contain "://" are routes (at most 16); the rest are queries.
    var builder = RouterBuilder<Int>(configuration: RouterConfiguration(linkScheme: "app"))
    var queries: [String] = []
    var routes = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: true).prefix(64) {
        if routes < 16, line.hasPrefix("/") || line.contains("://"), let pattern = try? RoutePattern(String(line)) {
            builder.add(Route(name: "r\(routes)", pattern: pattern, priority: routes % 3, value: routes))
            routes += 1
        } else {
            queries.append("app://" + line)
        }
    }
    guard let router = try? builder.build() else { return }
    for query in queries {
        guard let link = try? DeepLink(query) else { continue }
        let first = router.match(link)
        let all = router.candidates(for: link)
        require(first?.route.name == all.first?.route.name, "match and the first candidate differ for \(query)")
    }
}

func fuzzManifest(_ text: String) {
    guard let manifest = try? ManifestLoader.parse(text) else { return }
    _ = ManifestLinter(manifest: manifest).lint()
    if let resolver = try? manifest.makeResolver() {
        _ = resolver.resolve("myapp://messages/1")
        _ = manifest.makeIntake().text("/messages/1")
    }
}

func fuzzAASA(_ bytes: Data) {
    let (document, _) = AASADocument.parse(bytes)
    guard let document else { return }
    let checker = AASAChecker(document: document)
    for url in [
        "https://example.com/", "https://example.com/books/42?ref=a#top", "https://example.com/%E4%B8%AD/x",
        "https://example.com/admin/a/b/c", "https://example.com/US/en/path",
    ] {
        _ = checker.check(url)
    }
}

func fuzzPayload(_ text: String) {
    guard let fixture else { return }
    guard let payload = try? PayloadValue(json: text) else { return }
    for action in [NotificationActionIdentifier.default, NotificationActionIdentifier.dismiss, "like"] {
        _ = fixture.intake.notification(NotificationResponseSnapshot(actionIdentifier: action, userInfo: payload))
    }
    _ = fixture.intake.webMessage(WebMessageSnapshot(name: "openLink", body: payload, origin: "https://example.com"))
    _ = fixture.intake.shortcut(ShortcutItemSnapshot(type: "x", userInfo: payload.objectValueIfObject))
}

extension PayloadValue {
    /// The members of an object payload; empty for anything else.
    var objectValueIfObject: [String: PayloadValue] {
        if case .object(let members) = self { return members }
        return [:]
    }
}
