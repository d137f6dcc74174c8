import Foundation
import Waypoint

/// An APNs payload that opens a route, built by reverse routing in the shape the manifest's
/// notification mapping reads: where a notification rule leads to the route, its key paths carry
/// the parameters; otherwise the link goes under the first link key (`deeplink`).
///
/// ```swift
/// try PayloadGenerator(manifest: manifest).payload(route: "messages.detail", parameters: ["id": "1"], title: "Hi")
/// // {"aps": {"alert": {"title": "Hi"}}, "data": {"messageId": "1"}}
/// ```
package struct PayloadGenerator: Sendable {
    package let manifest: Manifest
    /// APNs refuses larger payloads (VoIP allows 5120).
    package static let sizeLimit = 4096

    package init(manifest: Manifest) { self.manifest = manifest }

    package struct Alert: Sendable {
        package var title: String?
        package var body: String?
        package var category: String?
        package var threadID: String?
        /// `aps.target-content-id`: which window shows the notification's link when the app has several.
        package var targetContentID: String?
        package init(
            title: String? = nil,
            body: String? = nil,
            category: String? = nil,
            threadID: String? = nil,
            targetContentID: String? = nil
        ) {
            self.title = title
            self.body = body
            self.category = category
            self.threadID = threadID
            self.targetContentID = targetContentID
        }
    }

    package func payload(
        route name: String,
        parameters: [String: String],
        wildcards: [String] = [],
        alert: Alert = Alert(),
        provider: NotificationProvider? = nil
    ) throws(ManifestError) -> PayloadValue {
        let router = try manifest.makeRouter()
        guard let route = router.route(named: name) else {
            let names = router.routes.map(\.name)
            let hint = Spelling.nearest(to: name, in: names).map { " Did you mean '\($0)'?" } ?? ""
            throw ManifestError(
                "No route is named '\(name)'; the routes are: \(names.joined(separator: ", ")).\(hint)",
                at: nil
            )
        }
        if let sources = route.sources, !sources.contains(.notification) {
            // Said before a link is built: the link would be refused for its source, and this says why.
            throw Self.wouldNotOpen(route.value, LinkResolver<ManifestRoute>.refusal(by: route, of: .notification))
        }
        let typed = try typedParameters(parameters, for: route.pattern, query: route.value.query, of: name)
        let link: DeepLink
        do {
            link = try router.link(for: name, typed, wildcards: wildcards)
        } catch {
            let takesWildcards = route.pattern.expansions.contains { $0.contains(.wildcard) || $0.contains(.catchAll) }
            let wildcardHint =
                takesWildcards && wildcards.isEmpty
                ? " Give one --wildcard VALUE for each '*', and any number for '**'." : ""
            throw ManifestError(
                error.message + Self.slip(in: Array(parameters.keys), of: route.pattern.parameterNames) + wildcardHint,
                at: route.value.location
            )
        }
        if let missing = route.value.missingQueryItem(in: link) {
            throw ManifestError(
                "The payload's link would open nothing: \(route.value.needs(missing)). Give it with --param \(missing.name)=….",
                at: nil
            )
        }
        var aps: [String: PayloadValue] = [:]
        var alertObject: [String: PayloadValue] = [:]
        if let title = alert.title { alertObject["title"] = .string(title) }
        if let body = alert.body { alertObject["body"] = .string(body) }
        if !alertObject.isEmpty { aps["alert"] = .object(alertObject) }
        if let threadID = alert.threadID { aps["thread-id"] = .string(threadID) }
        if let target = alert.targetContentID { aps["target-content-id"] = .string(target) }
        if let provider {
            guard !provider.links.isEmpty else {
                throw ManifestError(
                    "\(provider.title) documents no place for a push's link on iOS; use the manifest's own shape.",
                    at: nil
                )
            }
            var object = provider.samplePayload(link.string).objectValue
            var providerAPS = object["aps"]?.objectValue ?? [:]
            for (key, value) in aps { providerAPS[key] = value }
            if let category = alert.category { providerAPS["category"] = .string(category) }
            object["aps"] = .object(providerAPS)
            return try opening(Self.checked(.object(object)), route: route.value, router: router, provider: provider)
        }
        let payload =
            try ruleShapedPayload(
                for: link,
                resolver: LinkResolver(router: router, policy: manifest.makePolicy()),
                route: name,
                category: alert.category
            )
            ?? [manifest.notifications.linkKeys.first ?? "deeplink": .string(link.string)]
        if let category = alert.category ?? payload["aps.category"]?.text { aps["category"] = .string(category) }
        var object = payload.objectValue
        object["aps"] = .object(aps)
        return try opening(Self.checked(.object(object)), route: route.value, router: router, provider: nil)
    }

    /// The payload, once a tap on it, read as the app reads one, opens `route`: the round trip
    /// `waypoint resolve --notification` promises. It catches a route that takes no links from
    /// notifications (`sources: [universalLink]`), which a payload for it could never open.
    private func opening(
        _ payload: PayloadValue,
        route: ManifestRoute,
        router: Router<ManifestRoute>,
        provider: NotificationProvider?
    ) throws(ManifestError) -> PayloadValue {
        var intake = manifest.makeIntake()
        if let provider, !intake.notificationProviders.contains(provider) {
            intake.notificationProviders.append(provider)
        }
        let tap = NotificationResponseSnapshot(
            actionIdentifier: NotificationActionIdentifier.default,
            requestIdentifier: "payload",
            userInfo: payload
        )
        let report = ResolveReport.make(
            input: "",
            intake: intake.readNotification(tap).result,
            resolver: LinkResolver(router: router, policy: manifest.makePolicy())
        )
        guard report.status == .matched, report.route == route.name else {
            var why = report.route.map { "it opens the route '\($0)'" } ?? "it opens no route"
            if report.status != .matched, let reason = report.reason { why = reason }
            throw Self.wouldNotOpen(route, why)
        }
        return payload
    }

    private static func wouldNotOpen(_ route: ManifestRoute, _ why: String) -> ManifestError {
        ManifestError(
            "A tap on this payload would not open the route '\(route.name)': \(why)" + (why.hasSuffix(".") ? "" : "."),
            at: route.location
        )
    }

    /// When a given parameter's name is a slip of one the pattern needs and was not given
    /// (`orderId` for `orderID`), a sentence that says so; else nothing. A name the pattern does not
    /// have is otherwise a query item, so without this the slip only shows as a missing value.
    static func slip(in given: [String], of needed: [String]) -> String {
        let missing = needed.filter { !given.contains($0) }
        for name in given.sorted() where !needed.contains(name) {
            // A short name two edits away is no slip (`q` is not `id`): fewer edits than it has letters.
            if let meant = Spelling.nearest(to: name, in: missing),
                Spelling.distance(name.lowercased(), meant.lowercased()) < min(name.count, meant.count)
            {
                return " The parameter '\(name)' was given: did you mean '\(meant)'?"
            }
        }
        return ""
    }

    /// The payload, if APNs accepts its size.
    private static func checked(_ payload: PayloadValue) throws(ManifestError) -> PayloadValue {
        let size = byteCount(payload)
        guard size <= sizeLimit else {
            throw ManifestError("The payload is \(size) bytes; APNs accepts at most \(sizeLimit).", at: nil)
        }
        return payload
    }

    static func byteCount(_ payload: PayloadValue) -> Int {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(payload).count) ?? 0
    }

    /// The values typed as the route reads them: a path parameter by its pattern, a query item the
    /// route declares by its declaration. A route that declares its query items reads no other, so a
    /// name it has neither way is a slip, refused with the nearest name; a route that declares none
    /// gets any other name as a query item, as written.
    private func typedParameters(
        _ parameters: [String: String],
        for pattern: RoutePattern,
        query: [QueryParameter],
        of route: String
    ) throws(ManifestError) -> [String: ParameterValue] {
        var types: [String: ParameterType] = [:]
        for parameter in query { types[parameter.name] = parameter.type }
        for expansion in pattern.expansions {
            for case .parameter(let name, let type) in expansion { types[name] = type }
        }
        var typed: [String: ParameterValue] = [:]
        for (name, text) in parameters.sorted(by: { $0.key < $1.key }) {
            guard let type = types[name] else {
                guard query.isEmpty else {
                    let known = types.keys.sorted()
                    let hint = Spelling.nearest(to: name, in: known).map { " Did you mean '\($0)'?" } ?? ""
                    throw ManifestError(
                        "'\(name)' is neither a parameter nor a query item of the route '\(route)' "
                            + "(it has \(known.joined(separator: ", "))).\(hint)",
                        at: nil
                    )
                }
                typed[name] = .string(text)
                continue
            }
            switch type {
            case .int:
                guard let value = Int(text) else {
                    throw ManifestError("'\(name)' must be an int, got '\(text)'.", at: nil)
                }
                typed[name] = .int(value)
            case .double:
                guard let value = ParameterType.parseDouble(text) else {
                    throw ManifestError("'\(name)' must be a double, got '\(text)'.", at: nil)
                }
                typed[name] = .double(value)
            case .bool:
                guard let value = ParameterType.parseBool(text) else {
                    throw ManifestError("'\(name)' must be true or false, got '\(text)'.", at: nil)
                }
                typed[name] = .bool(value)
            case .uuid:
                guard let value = UUID(uuidString: text) else {
                    throw ManifestError("'\(name)' must be a UUID, got '\(text)'.", at: nil)
                }
                typed[name] = .uuid(value)
            default:
                typed[name] = .string(text)
            }
        }
        return typed
    }

    /// Inverts a notification rule: the first whose template, filled from a payload, reproduces the
    /// link. Its key paths then carry the link's values.
    private func ruleShapedPayload(
        for link: DeepLink,
        resolver: LinkResolver<ManifestRoute>,
        route: String,
        category: String?
    ) throws(ManifestError) -> PayloadValue? {
        let target = link.pathSegments
        for (rule, _) in manifest.notifications.rules {
            guard let values = Self.invert(rule.link, into: link) else { continue }
            var flat = values
            switch rule.condition {
            case .present(let keyPath): if flat[keyPath] == nil { continue }
            case .equals(let keyPath, let value):
                if keyPath == "aps.category", let category, category != value { continue }
                flat[keyPath] = value
            }
            let payload = ManifestLinter.nest(.object(flat.mapValues(PayloadValue.string)))
            guard let filled = try? rule.link.fill(from: payload),
                let match = resolver.resolve(filled, source: .notification).match,
                match.route.name == route, match.link.pathSegments == target,
                // A rule inverted here has no query in its template (`invert` refuses one): a link
                // with query items goes whole under the link key instead of losing them.
                match.link.queryItems == link.queryItems
            else { continue }
            return payload
        }
        return nil
    }

    /// Reads placeholder values off a link by aligning the template's path with the link's segments.
    static func invert(_ template: LinkTemplate, into link: DeepLink) -> [String: String]? {
        let text = template.text
        guard !text.contains("?") else { return nil }
        let path: Substring
        if let range = text.range(of: "://") {
            let rest = text[range.upperBound...]
            path = rest
        } else {
            path = Substring(text)
        }
        let pieces = path.split(separator: "/")
        let segments = link.pathSegments
        guard pieces.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (piece, segment) in zip(pieces, segments) {
            if piece.hasPrefix("{") && piece.hasSuffix("}") {
                values[String(piece.dropFirst().dropLast())] = segment
            } else if piece.lowercased() != segment.lowercased() {
                return nil
            }
        }
        return values
    }
}
