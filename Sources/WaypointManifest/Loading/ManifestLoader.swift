import Foundation
import Waypoint
import Yams

/// Reads a manifest from YAML (or JSON, which is YAML) into the types an app uses at runtime.
///
/// ```swift
/// let manifest = try ManifestLoader.load(file: "Examples/apartments.yaml")
/// let manifest = try ManifestLoader.parse("schemes: [myapp]\nroutes: [{name: a, pattern: /a}]")
/// ```
///
/// Every error names the file, line and column and what was expected; unknown keys are errors.
public enum ManifestLoader {
    /// Reads and parses a manifest file.
    public static func load(file path: String) throws(ManifestError) -> Manifest {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ManifestError("Cannot read the manifest '\(path)' (no such file, or not readable).", at: nil)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ManifestError("The manifest '\(path)' is not UTF-8 text.", at: nil)
        }
        return try parse(text, file: path)
    }

    /// Parses manifest text.
    public static func parse(_ text: String, file: String = "waypoint.yaml") throws(ManifestError) -> Manifest {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw ManifestError(
                    "The manifest is empty; it needs at least 'routes'.",
                    at: SourceLocation(file: file, line: 1, column: 1)
                )
            }
            root = node
        } catch let error as ManifestError {
            throw error
        } catch let error as YamlError {
            throw yamlError(error, text: text, file: file)
        } catch {
            throw ManifestError("The manifest is not valid YAML: \(error)", at: nil)
        }
        var manifest = Manifest()
        manifest.file = file
        try read(ManifestNode(node: root, path: "", file: file), into: &manifest)
        return manifest
    }

    private static func yamlError(_ error: YamlError, text: String, file: String) -> ManifestError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            // YAML indents with spaces only; editors that insert tabs make this the commonest slip,
            // and the parser names the tab only sometimes ("cannot start any token" for a list item).
            let line = text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(max(mark.line - 1, 0))
                .first
            let tabbed = problem.contains("tab character") || line?.prefix(while: \.isWhitespace).contains("\t") == true
            let hint = tabbed ? " Indent with spaces: YAML does not take tabs." : ""
            return ManifestError(
                "Invalid YAML: \(problem).\(hint)",
                at: SourceLocation(file: file, line: mark.line, column: mark.column)
            )
        default:
            return ManifestError("Invalid YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
        }
    }

    static let topLevelKeys = [
        "schemes", "domains", "appIDs", "android", "routes", "barriers", "notifications", "quickActions",
        "quickActionLimit", "activities", "webView", "policy", "universalLinks", "shortLinks",
    ]

    private static func read(_ root: ManifestNode, into manifest: inout Manifest) throws(ManifestError) {
        let top = try root.mapping(allowed: topLevelKeys)
        manifest.schemes = try Self.appSchemes(top["schemes"])
        if let node = top["domains"] {
            manifest.domains = try Self.domains(node)
        }
        if let node = top["appIDs"] {
            manifest.appIDs = try node.strings()
            // The shape rule shared with association files; a placeholder is a lint warning.
            for appID in manifest.appIDs {
                if let problem = AppID.problems(appID).first(where: { $0.severity == .error }) {
                    throw node.error(problem.message)
                }
            }
        }
        if let node = top["android"] {
            let android = try node.mapping(allowed: ["package", "fingerprints"])
            guard let package = android["package"] else { throw node.error("'android' needs 'package'.") }
            let app = AndroidApp(
                package: try package.nonEmptyString(),
                fingerprints: try android["fingerprints"]?.strings() ?? []
            )
            if let problem = AndroidApp.packageProblem(app.package) { throw package.error(problem) }
            for item in try android["fingerprints"]?.list() ?? [] {
                if let problem = AndroidApp.fingerprintProblem(try item.string()) { throw item.error(problem) }
            }
            manifest.android = app
        }
        guard let routes = top["routes"] else {
            throw root.error("The manifest needs 'routes', a list of {name, pattern}.")
        }
        manifest.routes = try readRoutes(routes)
        if let node = top["notifications"] { manifest.notifications = try readNotifications(node) }
        if let node = top["quickActions"] { manifest.quickActions = try node.list().map(readQuickAction) }
        if let node = top["quickActionLimit"] {
            manifest.quickActionLimit = try node.int()
            guard manifest.quickActionLimit >= 0 else {
                throw node.error(
                    "'quickActionLimit' is how many quick actions the system shows: 0 or more (iOS shows 4)."
                )
            }
        }
        for (name, node) in try top["barriers"]?.entries() ?? [] {
            let fields = try node.mapping(allowed: ["wait"])
            guard let wait = fields["wait"] else { throw node.error("'\(node.path)' needs a 'wait' (30m, 2h).") }
            manifest.barrierWaits[name] = BarrierWait(wait: try wait.duration(), location: node.location)
        }
        if let node = top["activities"] {
            manifest.activities = try node.entries().map { entry throws(ManifestError) in
                (entry.key, try entry.value.template())
            }
        }
        if let node = top["webView"] {
            let webView = try node.mapping(allowed: ["origins", "messages"])
            manifest.webView.origins = try Self.domains(webView["origins"])
            manifest.webView.messages = try (webView["messages"]?.list() ?? []).map { item throws(ManifestError) in
                let fields = try item.mapping(allowed: ["name", "link"])
                guard let name = fields["name"] else { throw item.error("A web message needs 'name'.") }
                let link: LinkTemplate? =
                    if let node = fields["link"] { try node.template(allowingEmpty: true) } else { nil }
                return WebMessageRoute(name: try name.nonEmptyString(), link: link)
            }
        }
        if let node = top["policy"] { manifest.policy = try readPolicy(node) }
        if let node = top["universalLinks"] {
            let settings = try node.mapping(allowed: ["exclude", "substitutionVariables"])
            manifest.universalLinks.exclude = try settings["exclude"]?.strings() ?? []
            for (name, values) in try settings["substitutionVariables"]?.entries() ?? [] {
                manifest.universalLinks.substitutionVariables[name] = try values.strings()
            }
        }
        if let node = top["shortLinks"] { manifest.shortLinks = try readShortLinks(node, domains: manifest.domains) }
    }

    /// `shortLinks: {domain: HOST}` or `{domains: [HOST…]}`: each one of the manifest's domains;
    /// `longLinks: true` to open the app for long Dynamic Links on them too; `imageHosts` where a
    /// link's preview image may be besides the manifest's domains.
    private static func readShortLinks(
        _ node: ManifestNode,
        domains: [String]
    ) throws(ManifestError) -> ShortLinkSettings {
        let settings = try node.mapping(allowed: ["domain", "domains", "longLinks", "imageHosts"])
        let listed: ManifestNode
        switch (settings["domain"], settings["domains"]) {
        case (let one?, nil): listed = one
        case (nil, let several?): listed = several
        case (nil, nil):
            throw node.error(
                "'shortLinks' needs 'domains' (or 'domain' for one), the hosts short links are shared under."
            )
        case (_?, _?):
            throw node.error("'shortLinks' takes 'domains' or 'domain', not both: list every host under 'domains'.")
        }
        var hosts: [String] = []
        for item in try listed.items() {
            let domain = try item.nonEmptyString()
            // Universal links do not fire after a redirect: the short link's own host must be associated.
            // Listed itself, not under a wildcard: an app's entitlements name the domains as listed,
            // and a wildcard entry is not where iOS looks for this host's file.
            guard !domain.hasPrefix("*."), domains.contains(where: { DomainPattern(domain).matches($0) }) else {
                throw item.error(
                    "The short-link domain '\(domain)' must be one of 'domains', listed as it is (not a wildcard, "
                        + "nor under one): a short link on a host the app is not associated with never opens the app."
                )
            }
            guard !hosts.contains(where: { DomainPattern($0).matches(domain) }) else {
                throw item.error("The short-link domain '\(domain)' is listed twice.")
            }
            hosts.append(domain)
        }
        guard !hosts.isEmpty else { throw listed.error("'shortLinks.domains' names at least one host.") }
        var shortLinks = ShortLinkSettings(domains: hosts)
        shortLinks.longLinks = try settings["longLinks"]?.bool() ?? false
        shortLinks.imageHosts = try Self.domains(settings["imageHosts"])
        return shortLinks
    }

    private static func readRoutes(_ node: ManifestNode) throws(ManifestError) -> [ManifestRoute] {
        var routes: [ManifestRoute] = []
        for item in try node.list() {
            let fields = try item.mapping(allowed: [
                "name", "pattern", "priority", "barriers", "sources", "destination", "tab", "presentation", "scene",
                "redirect", "query",
            ])
            guard let name = fields["name"] else { throw item.error("A route needs 'name'.") }
            guard let patternNode = fields["pattern"] else {
                throw item.error("The route '\(try name.string())' needs 'pattern'.")
            }
            let patternText = try patternNode.nonEmptyString()
            let pattern: RoutePattern
            do {
                pattern = try RoutePattern(patternText)
            } catch {
                throw patternNode.error(error.description)
            }
            var route = ManifestRoute(name: try name.nonEmptyString(), pattern: pattern, location: item.location)
            if let node = fields["priority"] { route.priority = try node.int() }
            if let node = fields["barriers"] { route.barriers = try node.strings() }
            if let node = fields["sources"] {
                var sources: Set<LinkSource> = []
                for text in try node.strings() {
                    guard let source = LinkSource(rawValue: text) else {
                        let known = LinkSource.allCases.map(\.rawValue).joined(separator: ", ")
                        throw node.error("Unknown source '\(text)'; expected one of: \(known).")
                    }
                    sources.insert(source)
                }
                route.sources = sources
            }
            if let node = fields["destination"] { route.destination = try node.string() }
            if let node = fields["tab"] { route.tab = try node.string() }
            if let node = fields["presentation"] { route.presentation = try readPresentation(node) }
            if let node = fields["scene"] { route.scene = try node.nonEmptyString() }
            if let node = fields["query"] { route.query = try readQuery(node, of: route) }
            if let node = fields["redirect"] { route.redirect = try readRedirect(node, of: route, fields: fields) }
            routes.append(route)
        }
        return routes
    }

    /// A route's query parameters: `name: TYPE`, or `name: {type: TYPE, optional: true}` or
    /// `{type: TYPE, default: VALUE}`.
    private static func readQuery(
        _ node: ManifestNode,
        of route: ManifestRoute
    ) throws(ManifestError) -> [QueryParameter] {
        var parameters: [QueryParameter] = []
        let types = ParameterType.allCases.map(\.rawValue)
        func type(_ node: ManifestNode) throws(ManifestError) -> ParameterType {
            let text = try node.string()
            if let type = ParameterType(rawValue: text) { return type }
            let meant = Spelling.meant(
                text,
                in: types,
                otherNames: ["integer": "int", "boolean": "bool", "number": "double"]
            )
            throw node.error(
                "Unknown type '\(text)'." + (meant.map { " Did you mean '\($0)'?" } ?? "")
                    + " The types are: \(types.joined(separator: ", "))."
            )
        }
        for (name, item) in try node.entries() {
            guard name.first.map({ $0.isLetter || $0 == "_" }) == true, name != "_",
                name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            else {
                throw item.error("The query parameter '\(name)' must be a Swift name: ASCII letters, digits and _.")
            }
            // Names typed route code uses itself, and keywords no argument label can be.
            guard !["values", "match", "parameters", "wildcards", "let", "var", "inout"].contains(name) else {
                throw item.error("The query parameter '\(name)' would clash in typed route code; name it otherwise.")
            }
            guard !route.pattern.parameterNames.contains(name) else {
                throw item.error(
                    "The route '\(route.name)' has '\(name)' in its pattern already; name the query one otherwise."
                )
            }
            var parameter: QueryParameter
            if case .scalar = item.node {
                parameter = QueryParameter(name: name, type: try type(item))
            } else {
                let fields = try item.mapping(allowed: ["type", "optional", "default"])
                guard let typeNode = fields["type"] else { throw item.error("'\(item.path)' needs a 'type'.") }
                parameter = QueryParameter(name: name, type: try type(typeNode))
                if let optional = fields["optional"] { parameter.isOptional = try optional.bool() }
                if let value = fields["default"] {
                    let text = try value.string()
                    guard !parameter.isOptional else {
                        throw value.error("'\(item.path)' is optional or has a default, not both.")
                    }
                    guard parameter.type != .uuid else {
                        throw value.error("A uuid query parameter has no default; make it optional.")
                    }
                    guard parameter.reads(text) else {
                        throw value.error("The default '\(text)' of '\(name)' is not a \(parameter.type).")
                    }
                    parameter.defaultValue = text
                }
            }
            parameters.append(parameter)
        }
        return parameters
    }

    /// A redirect: a link made from the route's own parameters, and nothing a screen needs beside it.
    private static func readRedirect(
        _ node: ManifestNode,
        of route: ManifestRoute,
        fields: [String: ManifestNode]
    ) throws(ManifestError) -> LinkTemplate {
        let template = try node.template()
        let shown = ["destination", "tab", "presentation", "query"].filter { fields[$0] != nil }
        guard shown.isEmpty else {
            throw node.error(
                "The route '\(route.name)' redirects, so it shows no screen: remove its "
                    + shown.map { "'\($0)'" }.joined(separator: " and ") + "."
            )
        }
        if let (placeholder, problem) = route.pattern.redirectPlaceholderProblem(template, of: route.name) {
            let parameters = route.pattern.typedParameters.filter(\.isInEveryShape).map(\.name)
            let nearest = Spelling.nearest(to: placeholder, in: parameters).map { " Did you mean '{\($0)}'?" } ?? ""
            throw node.error(problem + nearest)
        }
        return template
    }

    /// A route's presentation, spelled as in Swift; another name for one, or a slip, is an error
    /// that says which was meant.
    private static func readPresentation(_ node: ManifestNode) throws(ManifestError) -> RoutePresentation {
        let text = try node.string()
        if let presentation = RoutePresentation(rawValue: text) { return presentation }
        let names = RoutePresentation.allCases.map(\.rawValue)
        let meant = Spelling.meant(text, in: names, otherNames: RoutePresentation.otherNames)
        throw node.error(
            "Unknown presentation '\(text)'." + (meant.map { " Did you mean '\($0)'?" } ?? "")
                + " The presentations are: \(names.joined(separator: ", "))."
        )
    }

    private static func readNotifications(_ node: ManifestNode) throws(ManifestError) -> NotificationSettings {
        let fields = try node.mapping(allowed: ["keys", "providers", "rules", "categories", "settings"])
        var settings = NotificationSettings()
        if let keys = fields["keys"] { settings.linkKeys = try keys.strings() }
        if let providers = fields["providers"] {
            (settings.providers, settings.ownProviders) = try readProviders(providers)
        }
        for item in try fields["rules"]?.list() ?? [] {
            let rule = try item.mapping(allowed: ["present", "equals", "link"])
            guard let link = rule["link"] else { throw item.error("A notification rule needs 'link'.") }
            let condition: NotificationRule.Condition
            if let present = rule["present"] {
                condition = .present(try present.nonEmptyString())
            } else if let equals = rule["equals"] {
                let pairs = try equals.entries()
                guard pairs.count == 1, let pair = pairs.first else {
                    throw equals.error(
                        "'equals' must hold exactly one key path and its value, like {aps.category: bookDetail}."
                    )
                }
                condition = .equals(pair.key, try pair.value.string())
            } else {
                throw item.error("A notification rule needs 'present: KEY.PATH' or 'equals: {KEY.PATH: VALUE}'.")
            }
            settings.rules.append(
                (NotificationRule(condition, link: try link.template()), item.location)
            )
        }
        for item in try fields["categories"]?.list() ?? [] {
            let category = try item.mapping(allowed: ["id", "actions", "reportsDismiss"])
            guard let id = category["id"] else { throw item.error("A notification category needs 'id'.") }
            var actions: [NotificationAction] = []
            for actionNode in try category["actions"]?.list() ?? [] {
                actions.append(try readAction(actionNode))
            }
            settings.categories.append(
                NotificationCategory(
                    id: try id.nonEmptyString(),
                    actions: actions,
                    reportsDismiss: try category["reportsDismiss"]?.bool() ?? false
                )
            )
        }
        if let link = fields["settings"] { settings.settingsLink = try link.template() }
        return settings
    }

    private static func readAction(_ node: ManifestNode) throws(ManifestError) -> NotificationAction {
        let fields = try node.mapping(allowed: ["id", "title", "options", "link", "handler", "payloadLink"])
        guard let id = fields["id"], let title = fields["title"] else {
            throw node.error("A notification action needs 'id' and 'title'.")
        }
        var options: NotificationAction.Options = []
        for option in try fields["options"]?.strings() ?? [] {
            switch option {
            case "foreground": options.insert(.foreground)
            case "destructive": options.insert(.destructive)
            case "authenticationRequired": options.insert(.authenticationRequired)
            default:
                throw (fields["options"] ?? node).error(
                    "Unknown action option '\(option)'; expected foreground, destructive or authenticationRequired."
                )
            }
        }
        let target: NotificationActionTarget
        if let link = fields["link"] {
            target = .link(try link.template())
        } else if try fields["handler"]?.bool() == true {
            target = .handler
        } else if try fields["payloadLink"]?.bool() == true {
            target = .payloadLink
        } else {
            throw node.error(
                "The action '\(try id.string())' needs 'link: TEMPLATE', 'handler: true' or 'payloadLink: true'."
            )
        }
        return NotificationAction(
            id: try id.nonEmptyString(),
            title: try title.string(),
            options: options,
            target: target
        )
    }

    private static func readQuickAction(_ node: ManifestNode) throws(ManifestError) -> ManifestQuickAction {
        let fields = try node.mapping(allowed: ["type", "title", "subtitle", "icon", "userInfo", "link", "when"])
        guard let type = fields["type"], let title = fields["title"], let link = fields["link"] else {
            throw node.error("A quick action needs 'type', 'title' and 'link'.")
        }
        var userInfo: [String: PayloadValue] = [:]
        for (key, value) in try fields["userInfo"]?.entries() ?? [] {
            if let number = value.node.int {
                userInfo[key] = .int(number)
            } else if let flag = value.node.bool {
                userInfo[key] = .bool(flag)
            } else {
                userInfo[key] = .string(try value.string())
            }
        }
        var conditions: [String: [String]] = [:]
        for (key, values) in try fields["when"]?.entries() ?? [] { conditions[key] = try values.strings() }
        let item = QuickActionItem(
            type: try type.nonEmptyString(),
            title: try title.string(),
            subtitle: try fields["subtitle"]?.string(),
            iconName: try fields["icon"]?.string(),
            userInfo: userInfo
        )
        return ManifestQuickAction(
            item: item,
            link: try link.template(),
            conditions: conditions,
            location: node.location
        )
    }

    /// A list of schemes, each checked by the rule a dispatcher's policy is checked by: `myapp://`
    /// fails at its line, not as every link refused at run time.
    private static func schemes(_ node: ManifestNode?) throws(ManifestError) -> [String] {
        try checkedStrings(node, LinkPolicy.schemeProblem)
    }

    /// The app's own schemes (the first builds its links): custom ones, so not `https` or `javascript`.
    private static func appSchemes(_ node: ManifestNode?) throws(ManifestError) -> [String] {
        try checkedStrings(node, LinkPolicy.appSchemeProblem)
    }

    /// A list of domains the app claims, each checked by the rule a dispatcher's policy is checked by.
    private static func domains(_ node: ManifestNode?) throws(ManifestError) -> [String] {
        try checkedStrings(node, DomainPattern.problem)
    }

    /// A list of hosts the policy refuses or passes on: a domain's shape, `*.tk` allowed.
    private static func hosts(_ node: ManifestNode?) throws(ManifestError) -> [String] {
        try checkedStrings(node, DomainPattern.shapeProblem)
    }

    private static func checkedStrings(
        _ node: ManifestNode?,
        _ problem: (String) -> String?
    ) throws(ManifestError) -> [String] {
        guard let node else { return [] }
        let strings = try node.strings()
        for string in strings {
            if let problem = problem(string) { throw node.error(problem) }
        }
        return strings
    }

    private static func readPolicy(_ node: ManifestNode) throws(ManifestError) -> ManifestPolicy {
        let fields = try node.mapping(allowed: [
            "denySchemes", "denyHosts", "passThroughSchemes", "passThroughHosts", "maxLength", "maxSegments",
            "maxQueryItems",
            "caseSensitive",
        ])
        var policy = ManifestPolicy()
        policy.denySchemes = try schemes(fields["denySchemes"])
        policy.denyHosts = try hosts(fields["denyHosts"])
        policy.passThroughSchemes = try schemes(fields["passThroughSchemes"])
        policy.passThroughHosts = try hosts(fields["passThroughHosts"])
        if let value = fields["maxLength"] { policy.limits.maxLength = try value.int() }
        if let value = fields["maxSegments"] { policy.limits.maxSegments = try value.int() }
        if let value = fields["maxQueryItems"] { policy.limits.maxQueryItems = try value.int() }
        if let value = fields["caseSensitive"] { policy.caseSensitive = try value.bool() }
        return policy
    }
}
