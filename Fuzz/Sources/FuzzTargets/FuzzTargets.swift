// libFuzzer entry point. One binary, several targets: `WAYPOINT_FUZZ_TARGET` names the one to run
// (link, pattern, router, manifest, aasa, payload). Each target feeds the input to a parser that
// untrusted input reaches, then checks what must hold for any input; a broken rule traps, which
// libFuzzer reports as a crash with the input that caused it.
import Foundation
import Waypoint

// The association-file reader and the linter are `package` API, reached as tests reach them;
// Scripts/fuzz.sh builds with -enable-testing.
@testable import WaypointManifest

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
            notificationProviders: NotificationProvider.presets,
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
    _ = fixture.intake.text(text)
    fuzzWebNavigation(text, fixture.resolver)
    fuzzRedirectTarget(text, fixture.resolver)
}

/// RFC 3986's remove_dot_segments, on a path that starts with "/".
func removingDotSegments(_ path: String) -> String {
    var output: [Substring] = []
    let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
    for (index, segment) in segments.enumerated() {
        let isLast = index == segments.count - 1
        switch segment {
        case ".":
            if isLast { output.append("") }
        case "..":
            if !output.isEmpty { output.removeLast() }
            if isLast { output.append("") }
        default:
            output.append(segment)
        }
    }
    return "/" + output.joined(separator: "/")
}

/// Only a tap in the main frame routes or opens another app; nothing refused by policy loads.
func fuzzWebNavigation(_ text: String, _ resolver: LinkResolver<String>) {
    for (mainFrame, tapped) in [(true, true), (true, false), (false, true), (false, false)] {
        let decision = resolver.webNavigationDecision(
            for: WebNavigation(url: text, isMainFrame: mainFrame, isUserInitiated: tapped)
        )
        if !(mainFrame && tapped) {
            require(
                decision != .route && decision != .openOutside,
                "an untrusted navigation left the web view: \(text)"
            )
        }
        if decision == .load {
            require((try? DeepLink(text))?.isWeb == true, "a web view loads what is not a web page: \(text)")
        }
    }
}

/// An own destination names no other host however a browser reads it, and following one keeps
/// the outer link's source.
func fuzzRedirectTarget(_ text: String, _ resolver: LinkResolver<String>) {
    let policy = resolver.policy
    if policy.isOwnDestination(text) {
        if text.hasPrefix("/") {
            // A WHATWG parser drops tabs and line breaks; an app may decode once more.
            let read = (text.removingPercentEncoding ?? text).filter { !"\t\n\r".contains($0) }
            require(!read.hasPrefix("//") && !read.hasPrefix("/\\"), "an own path reads as another host: \(text)")
            // A URL resolver removes dot segments (RFC 3986, 5.2.4) and keeps empty ones.
            let path = String(read.prefix { $0 != "?" && $0 != "#" })
            require(!removingDotSegments(path).hasPrefix("//"), "an own path resolves to another host: \(text)")
        } else if let link = try? DeepLink(text), link.isWeb {
            require(link.scheme == "https" && (link.port == nil || link.port == 443), "an own web target: \(text)")
            require(link.host.map(policy.isAssociated) == true, "an own web target on another host: \(text)")
        }
    }
    if let outer = try? DeepLink("myapp://login", source: .urlScheme),
        case .matched(let match) = resolver.resolve(redirect: text, from: outer)
    {
        require(policy.isOwnDestination(text), "a redirect to a foreign destination was followed: \(text)")
        require(match.link.source == .urlScheme, "a followed redirect changed its source: \(text)")
    }
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
        "https://example.com/admin/a/b/c", "https://example.com/US/en/path", "http://example.com/search?q=a&q=",
        "https://example.com/c++/a%20b?tag&tag=x",
    ] {
        let verdict = checker.check(url)
        // A verdict that opens the app names the entry that decided it.
        require(!verdict.opensApp || verdict.location != nil, "an open without a deciding entry: \(url)")
        require(!(verdict.opensApp && verdict.excluded), "opened and excluded at once: \(url)")
    }
}

func fuzzPayload(_ text: String) {
    guard let fixture else { return }
    fuzzFoundationPayload(text)
    fuzzIntegerDigits(text)
    guard let payload = try? PayloadValue(json: text) else { return }
    for action in [NotificationActionIdentifier.default, NotificationActionIdentifier.dismiss, "like"] {
        _ = fixture.intake.notification(NotificationResponseSnapshot(actionIdentifier: action, userInfo: payload))
    }
    _ = fixture.intake.notification(NotificationResponseSnapshot(actionIdentifier: "read", userInfo: payload))
    _ = fixture.intake.webMessage(WebMessageSnapshot(name: "openLink", body: payload, origin: "https://example.com"))
    _ = fixture.intake.shortcut(ShortcutItemSnapshot(type: "x", userInfo: payload.objectValueIfObject))
}

/// A payload as Apple delivers one: Foundation objects, converted on a thread with a 512 KB stack
/// (what an app's secondary threads get). An input that starts with a character JSON cannot start
/// with (a control character or non-ASCII: `\u{1}{…}`, `é[…]`) is the rest wrapped in as many
/// more levels as that character's first byte, times 16 (up to 4,080). Earlier runs parsed JSON,
/// which Foundation stops at 512 levels, and converted it on the main thread's 8 MB stack: the
/// nesting that overflowed a 512 KB stack never reached the conversion there.
func fuzzFoundationPayload(_ text: String) {
    let first = text.utf8.first ?? 0
    let wraps = first >= 0x80 || (first < 0x20 && first != 0x09 && first != 0x0A && first != 0x0D && first != 0x20)
    let levels = wraps ? Int(first) * 16 : 0
    let json = wraps ? String(text.dropFirst()) : text
    smallStack.run {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
        else { return }
        var wrapped: Any = object
        for _ in 0..<levels { wrapped = ["k": wrapped] }
        do throws(WaypointError) {
            _ = try PayloadValue(any: wrapped)
            require(levels <= PayloadValue.defaultMaxDepth, "\(levels) extra levels passed the depth limit")
        } catch {
            require(error.code == .payloadTooDeep || error.code == .unsupportedPayload, "\(error.code): \(text)")
        }
        // Freed a level at a time: releasing it whole recurses as deep as it nests.
        while let level = wrapped as? [String: Any], let inner = level["k"] { wrapped = inner }
    }
}

/// One thread with a 512 KB stack that runs a job at a time: a thread per input would cost more
/// than the input.
final class SmallStackWorker: @unchecked Sendable {
    // The semaphores order every access to `job`: set before `ready`, read before `done`.
    private let ready = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private var job: (@Sendable () -> Void)?

    init() {
        let thread = Thread { [self] in
            while true {
                ready.wait()
                job?()
                done.signal()
            }
        }
        thread.stackSize = 512 * 1024
        thread.start()
    }

    func run(_ body: @escaping @Sendable () -> Void) {
        job = body
        ready.signal()
        done.wait()
    }
}

let smallStack = SmallStackWorker()

/// An integer in a payload reaches the link as the same digits, up to 38 of them: Foundation's
/// JSON parser keeps longer ones in an `NSDecimalNumber`, whose 38-digit mantissa has already
/// rounded them (on a device too, where the system parses the push) before Waypoint sees them.
func fuzzIntegerDigits(_ text: String) {
    let digits = text.hasPrefix("-") ? text.utf8.dropFirst() : text.utf8[...]
    guard (1...38).contains(digits.count), digits.allSatisfy({ $0 >= 48 && $0 <= 57 }),
        digits.first != 48 || digits.count == 1, text != "-0"
    else { return }
    let value = try? PayloadValue(json: #"{"n":"# + text + "}")
    require(value?["n"]?.text == text, "the integer \(text) became \(String(describing: value?["n"]))")
}

extension PayloadValue {
    /// The members of an object payload; empty for anything else.
    var objectValueIfObject: [String: PayloadValue] {
        if case .object(let members) = self { return members }
        return [:]
    }
}
