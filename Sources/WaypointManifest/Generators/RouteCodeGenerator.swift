import Waypoint

/// Swift source for the manifest's routes: an enum with one case per route, typed associated
/// values, the link builder, and initializers from a match; then the manifest's link setup
/// (``LinkSetupGenerator``).
///
/// ```swift
/// // generated
/// public enum AppRoute: Hashable, Sendable {
///     case messagesDetail(id: Int)
///     …
/// }
/// try AppRoute.messagesDetail(id: 42).link(in: router).string // "myapp://messages/42"
/// AppRoute(router.match(link)!)                               // .messagesDetail(id: 42)
/// ```
package struct RouteCodeGenerator: Sendable {
    package let manifest: Manifest
    package var typeName: String

    package init(manifest: Manifest, typeName: String = "AppRoute") {
        self.manifest = manifest
        self.typeName = typeName
    }

    struct Parameter {
        let name: String
        let type: ParameterType
        let isOptional: Bool
        /// A query parameter's, read from the link's query instead of its path.
        var query: QueryParameter?

        /// As an argument label, where keywords need no backticks.
        var label: String { name }
        /// As a variable, where they do.
        var variable: String { RouteCodeGenerator.identifier(name) }
        var swiftType: String {
            let base =
                switch type {
                case .int: "Int"
                case .double: "Double"
                case .bool: "Bool"
                case .uuid: "UUID"
                case .string: "String"
                }
            return isOptional ? base + "?" : base
        }
        /// The value as the link carries it, `nil` when it carries none of the parameter's type.
        var accessor: String {
            guard let query else { return "parameters.\(type == .string ? "string" : type.rawValue)(\"\(name)\")" }
            let read = "match.link.queryValue(\"\(name)\")"
            return type == .string ? read : "\(read).flatMap { ParameterValue.string($0).\(query.accessor) }"
        }
        /// The case's default for the parameter, as a Swift literal: `nil` for an optional one.
        var defaultLiteral: String? {
            if let value = query?.defaultValue { return Self.literal(value, type) }
            return isOptional ? "nil" : nil
        }

        /// A default as a Swift literal of its type (the loader checked it is one).
        static func literal(_ text: String, _ type: ParameterType) -> String {
            let value = ParameterValue.string(text)
            return switch type {
            case .int: value.intValue.map { "\($0)" } ?? "0"
            case .double: value.doubleValue.map { "\($0)" } ?? "0"
            case .bool: value.boolValue.map { "\($0)" } ?? "false"
            case .uuid, .string: text.debugDescription
            }
        }
        var wrapped: String { ".\(type)(\(variable))" }
    }

    struct Case {
        let route: ManifestRoute
        let caseName: String
        let parameters: [Parameter]
        let hasWildcards: Bool
    }

    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "protocol", "public", "static", "struct", "subscript",
        "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else", "fallthrough", "for",
        "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as", "catch", "false", "is", "nil",
        "rethrows", "super", "self", "Self", "throw", "throws", "true", "try", "Any", "some", "any",
    ]

    /// The generated link setup's static members (``LinkSetupGenerator``), which no case may be named.
    static let setupMembers: Set<String> = [
        "policy", "routerConfiguration", "notificationCategories", "intake", "quickActions", "barrierWaits",
        "linkRoutes", "makeDispatcher",
    ]

    /// Names the generated code uses for other types: an enum named so would hide them.
    static let usedTypeNames: Set<String> = [
        "Screen", "Value", "Barrier", "DeepLink", "DispatchClock", "DispatcherConfiguration",
        "InMemoryPendingLinkStore",
        "LinkDispatcher", "LinkFallbacks", "LinkIntake", "LinkLimits", "LinkPolicy", "LinkRoute", "LinkStyle",
        "MandatoryBarrier", "NavigationPlan", "NotificationAction", "NotificationCategory",
        "NotificationCategoryCatalog", "NotificationProvider", "NotificationRule", "ParameterValue", "PendingLinkStore",
        "QuickAction", "QuickActionCatalog", "Router", "RouterConfiguration", "RouteMatch", "SystemDispatchClock",
        "WaypointError", "WebMessageRoute", "String", "Int", "Double", "Bool", "UUID", "Optional", "Self",
    ]

    /// Whether `name` can name the generated enum as written: an ASCII identifier, not a keyword.
    static func isTypeName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !keywords.contains(name) else { return false }
        let isWordCharacter = { (scalar: Unicode.Scalar) in
            scalar.isASCII && (scalar.properties.isAlphabetic || scalar == "_" || ("0"..."9").contains(scalar))
        }
        return isWordCharacter(first) && !("0"..."9").contains(first) && name.unicodeScalars.allSatisfy(isWordCharacter)
            && !usedTypeNames.contains(name)
    }

    /// A Swift identifier, backticked when it is a keyword.
    static func identifier(_ name: String) -> String { keywords.contains(name) ? "`\(name)`" : name }

    /// `messages.detail` → `messagesDetail`; `2fa-setup` → `route2faSetup`.
    static func caseName(_ routeName: String) -> String {
        let words = routeName.split { !($0.isLetter || $0.isNumber || $0 == "_") || !$0.isASCII }
        var name = words.enumerated().map { index, word in
            index == 0 ? word.prefix(1).lowercased() + word.dropFirst() : word.prefix(1).uppercased() + word.dropFirst()
        }.joined()
        if name.isEmpty || name.first?.isNumber == true {
            name = "route" + name.prefix(1).uppercased() + name.dropFirst()
        }
        return identifier(name)
    }

    func cases() throws(ManifestError) -> [Case] {
        let (cases, problems) = casesAndProblems()
        if let first = problems.first { throw first }
        return cases
    }

    /// Every route that makes no Swift case of its own, so lint reports them all in one run.
    package func caseProblems() -> [ManifestError] { casesAndProblems().problems }

    private func casesAndProblems() -> (cases: [Case], problems: [ManifestError]) {
        var cases: [Case] = []
        var problems: [ManifestError] = []
        var used: Set<String> = []
        for route in manifest.routes where route.redirect == nil {  // a redirect shows no screen of its own
            let pattern = route.pattern
            let parameters =
                pattern.typedParameters.map { Parameter(name: $0.name, type: $0.type, isOptional: !$0.isInEveryShape) }
                + route.query.map { Parameter(name: $0.name, type: $0.type, isOptional: $0.isOptional, query: $0) }
            let hasWildcards = pattern.expansions.contains { $0.contains(.wildcard) || $0.contains(.catchAll) }
            let name = Self.caseName(route.name)
            if Self.setupMembers.contains(name) {
                problems.append(
                    ManifestError(
                        "The route '\(route.name)' makes the Swift case '\(name)', which the generated link setup uses "
                            + "for \(typeName).\(name); rename the route (for example '\(route.name).page').",
                        at: route.location
                    )
                )
                continue
            }
            guard used.insert(name).inserted else {
                problems.append(
                    ManifestError("Two routes make the same Swift case '\(name)'; rename one.", at: route.location)
                )
                continue
            }
            cases.append(Case(route: route, caseName: name, parameters: parameters, hasWildcards: hasWildcards))
        }
        return (cases, problems)
    }

    package func source() throws(ManifestError) -> String {
        guard Self.isTypeName(typeName) else {
            throw ManifestError(
                "'\(typeName)' cannot name the generated enum: use ASCII letters, digits and _, not starting with a "
                    + "digit, not a keyword and not a type the generated code uses, such as Screen or LinkPolicy "
                    + "(for example AppRoute).",
                at: nil
            )
        }
        let cases = try cases()
        let file = manifest.file.split(separator: "/").last.map(String.init) ?? manifest.file
        var lines: [String] = [
            "// Generated by `waypoint codegen` from \(file). Do not edit: change the manifest and run it again.",
            "// swift-format-ignore-file",
            "",
        ]
        if cases.contains(where: { $0.parameters.contains { $0.type == .uuid } }) { lines.append("import Foundation") }
        lines += [
            "import Waypoint",
            "",
            "/// Every route of the manifest, with its parameters typed.",
            "public enum \(typeName): Hashable, Sendable {",
        ]
        for entry in cases {
            // Optional and defaulted values may be left out: `.search(q: "lamps")`.
            var values = entry.parameters.map {
                "\($0.label): \($0.swiftType)" + ($0.defaultLiteral.map { " = \($0)" } ?? "")
            }
            if entry.hasWildcards { values.append("wildcards: [String]") }
            let query = entry.route.query.map { "\($0.name)=" }.joined(separator: "&")
            lines.append("    /// `\(entry.route.pattern)\(query.isEmpty ? "" : "?" + query)`")
            lines.append("    case \(entry.caseName)" + (values.isEmpty ? "" : "(\(values.joined(separator: ", ")))"))
        }
        lines += [
            "", "    /// The route's name in the manifest.", "    public var name: String {", "        switch self {",
        ]
        for entry in cases { lines.append("        case .\(entry.caseName): \(SwiftSource.string(entry.route.name))") }
        lines += ["        }", "    }", ""]
        lines += [
            "    /// The values the route's link is built from.",
            "    public var parameters: [String: ParameterValue] {", "        switch self {",
        ]
        for entry in cases {
            guard !entry.parameters.isEmpty else {
                lines.append("        case .\(entry.caseName): return [:]")
                continue
            }
            let bindings = entry.parameters.map { "let \($0.variable)" } + (entry.hasWildcards ? ["_"] : [])
            lines.append("        case .\(entry.caseName)(\(bindings.joined(separator: ", "))):")
            let required = entry.parameters.filter { !$0.isOptional }
            let optional = entry.parameters.filter(\.isOptional)
            let literal =
                required.isEmpty
                ? "[:]" : "[" + required.map { "\"\($0.name)\": \($0.wrapped)" }.joined(separator: ", ") + "]"
            if optional.isEmpty {
                lines.append("            return \(literal)")
            } else {
                lines.append("            var values: [String: ParameterValue] = \(literal)")
                for parameter in optional {
                    lines.append(
                        "            if let \(parameter.variable) { values[\"\(parameter.name)\"] = \(parameter.wrapped) }"
                    )
                }
                lines.append("            return values")
            }
        }
        lines += ["        }", "    }", ""]
        lines += [
            "    /// What the route's `*` and `**` capture.", "    public var wildcards: [String] {",
            "        switch self {",
        ]
        for entry in cases where entry.hasWildcards {
            let bindings = entry.parameters.map { _ in "_" } + ["let wildcards"]
            lines.append("        case .\(entry.caseName)(\(bindings.joined(separator: ", "))): return wildcards")
        }
        if cases.contains(where: { !$0.hasWildcards }) { lines.append("        default: return []") }
        lines += ["        }", "    }", ""]
        lines += [
            "    /// The route's link, built by the router: the dispatcher's (`dispatcher.resolver.router`), or",
            "    /// one built with the same ``routerConfiguration``. For a route that takes universal links only,",
            "    /// or a share link on the web, pass `style: .universal(host:)` with one of the app's domains.",
            "    public func link<Value>(in router: Router<Value>, style: LinkStyle? = nil) throws(WaypointError) -> DeepLink {",
            "        try router.link(for: name, parameters, wildcards: wildcards, style: style)",
            "    }",
            "",
            "    /// The route a match stands for. Throws ``WaypointError`` for a route of another table, or a",
            "    /// link without a required query parameter of its type. An optional query parameter not of its",
            "    /// type reads as absent (`nil`, or its default), as an unknown one is ignored.",
            "    public init<Value>(matching match: RouteMatch<Value>) throws(WaypointError) {",
            "        let parameters = match.parameters",
            "        switch match.route.name {",
        ]
        for entry in cases {
            lines.append("        case \(SwiftSource.string(entry.route.name)):")
            var arguments: [String] = []
            // A local named `self` would hide the value being set (`self = .owner(self: self)`).
            let names = Set(entry.parameters.map(\.name))
            var selfLocal = "selfValue"
            while names.contains(selfLocal) { selfLocal += "_" }
            for parameter in entry.parameters {
                let local = parameter.name == "self" ? selfLocal : parameter.variable
                if let fallback = parameter.defaultLiteral {
                    // An optional or defaulted query item not of its type reads as absent, as an
                    // unknown one does (`page=two` beside `utm_source`): the screen still opens.
                    let read = fallback == "nil" ? parameter.accessor : "\(parameter.accessor) ?? \(fallback)"
                    lines.append("            let \(local) = \(read)")
                } else {
                    let wanted = parameter.query == nil ? "parameter" : "query parameter"
                    let message = SwiftSource.escaped(
                        "' has no \(parameter.swiftType) value for the \(wanted) '\(parameter.name)', "
                            + "which the route '\(entry.route.name)' needs."
                    )
                    lines += [
                        "            guard let \(local) = \(parameter.accessor) else {",
                        "                throw WaypointError(",
                        "                    .missingParameter,",
                        "                    input: match.link.string,",
                        "                    names: \(SwiftSource.strings([entry.route.name, parameter.name])),",
                        "                    message: \"The link '\\(match.link)\(message)\"",
                        "                )",
                        "            }",
                    ]
                }
                arguments.append("\(parameter.label): \(local)")
            }
            if entry.hasWildcards { arguments.append("wildcards: match.wildcards") }
            lines.append(
                "            self = .\(entry.caseName)"
                    + (arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))")
            )
        }
        lines += [
            "        default:",
            "            throw WaypointError(",
            "                .unknownRoute,",
            "                input: match.link.string,",
            "                names: [match.route.name],",
            "                message: \"The route '\\(match.route.name)' is not a route of \(SwiftSource.escaped(file)).\"",
            "            )",
            "        }",
            "    }",
            "",
            "    /// The route a match stands for; `nil` where ``init(matching:)`` throws.",
            "    public init?<Value>(_ match: RouteMatch<Value>) {",
            "        guard let route = try? Self(matching: match) else { return nil }",
            "        self = route",
            "    }",
            "}",
        ]
        lines += try LinkSetupGenerator(manifest: manifest, typeName: typeName, fileName: file).lines()
        lines.append("")
        return lines.joined(separator: "\n")
    }
}
