import Waypoint

/// Swift expressions that rebuild values of the core, for generated code: each prints the
/// initializer call that makes an equal value, leaving out arguments at their defaults, so a
/// generated file reads like code a person would write.
enum SwiftSource {
    /// `"text"`, escaped as Swift needs.
    static func string(_ text: String) -> String { "\"" + escaped(text) + "\"" }

    /// The text as it goes between a Swift string literal's quotes: quotes, backslashes and control
    /// characters escaped, everything else as it is.
    static func escaped(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                output += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    static func optional(_ text: String?) -> String { text.map(string) ?? "nil" }

    static func strings(_ texts: [String]) -> String { "[" + texts.map(string).joined(separator: ", ") + "]" }

    /// A dictionary literal with its keys in order, so the file is the same at every build.
    static func dictionary(_ entries: [String: String], value: (String) -> String = string) -> String {
        guard !entries.isEmpty else { return "[:]" }
        return list(entries.keys.sorted().map { "\(string($0)): \(value(entries[$0] ?? ""))" })
    }

    /// An argument of a call, left out when it is at its default.
    typealias Argument = (label: String, value: String, isDefault: Bool)

    /// `Type(label: value, …)` with the arguments not at their default; over several lines, one
    /// argument a line, when `multiline`.
    static func call(_ type: String, multiline: Bool = false, _ arguments: [Argument]) -> String {
        let written = labelled(arguments)
        guard multiline, !written.isEmpty else { return type + "(" + written.joined(separator: ", ") + ")" }
        return type + "(\n" + written.map { indented($0) }.joined(separator: ",\n") + "\n)"
    }

    /// `label: value` for each argument not at its default.
    static func labelled(_ arguments: [Argument]) -> [String] {
        arguments.filter { !$0.isDefault }.map { "\($0.label): \($0.value)" }
    }

    /// Every line of `text` four spaces further in.
    static func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
    }

    static func policy(_ policy: LinkPolicy) -> String {
        let domains = { (patterns: [DomainPattern]) in strings(patterns.map(\.description)) }
        let limits = policy.limits
        let defaults = LinkLimits()
        let limitCall = call(
            "LinkLimits",
            [
                ("maxLength", "\(limits.maxLength)", limits.maxLength == defaults.maxLength),
                ("maxSegments", "\(limits.maxSegments)", limits.maxSegments == defaults.maxSegments),
                ("maxQueryItems", "\(limits.maxQueryItems)", limits.maxQueryItems == defaults.maxQueryItems),
            ]
        )
        return call(
            "LinkPolicy",
            multiline: true,
            [
                ("schemes", strings(policy.schemes.sorted()), policy.schemes.isEmpty),
                ("associatedDomains", domains(policy.associatedDomains), policy.associatedDomains.isEmpty),
                ("deniedSchemes", strings(policy.deniedSchemes.sorted()), policy.deniedSchemes.isEmpty),
                ("deniedHosts", domains(policy.deniedHosts), policy.deniedHosts.isEmpty),
                ("passThroughSchemes", strings(policy.passThroughSchemes.sorted()), policy.passThroughSchemes.isEmpty),
                ("passThroughHosts", domains(policy.passThroughHosts), policy.passThroughHosts.isEmpty),
                ("limits", limitCall, limits == defaults),
            ]
        )
    }

    /// The intake, with its policy and categories named by the generated constants that hold them.
    static func intake(_ intake: LinkIntake, policy: String, categories: String) throws(ManifestError) -> String {
        let providers = intake.notificationProviders.map(provider)
        let rules = intake.notificationRules.map { rule in
            let condition =
                switch rule.condition {
                case .present(let path): ".present(\(string(path)))"
                case .equals(let path, let value): ".equals(\(string(path)), \(string(value)))"
                }
            return "NotificationRule(\(condition), link: \(string(rule.link.text)))"
        }
        let messages = intake.webMessages.map { message in
            "WebMessageRoute(name: \(string(message.name))" + (message.link.map { ", link: \(string($0.text))" } ?? "")
                + ")"
        }
        let defaults = LinkIntake(policy: LinkPolicy())
        let templates = { (routes: [String: LinkTemplate]) in dictionary(routes.mapValues(\.text)) }
        return call(
            "LinkIntake",
            multiline: true,
            [
                ("policy", policy, false),
                ("linkKeys", strings(intake.linkKeys), intake.linkKeys == defaults.linkKeys),
                ("notificationProviders", list(providers), providers.isEmpty),
                ("notificationRules", list(rules), rules.isEmpty),
                ("notificationCategories", categories, intake.notificationCategories.categories.isEmpty),
                (
                    "notificationSettingsLink", optional(intake.notificationSettingsLink?.text),
                    intake.notificationSettingsLink == nil
                ),
                ("shortcutRoutes", templates(intake.shortcutRoutes), intake.shortcutRoutes.isEmpty),
                ("activityRoutes", templates(intake.activityRoutes), intake.activityRoutes.isEmpty),
                ("webMessages", list(messages), messages.isEmpty),
                ("webOrigins", strings(intake.webOrigins.map(\.description)), intake.webOrigins.isEmpty),
                (
                    "maximumPayloadDepth", "\(intake.maximumPayloadDepth)",
                    intake.maximumPayloadDepth == defaults.maximumPayloadDepth
                ),
            ]
        )
    }

    static func category(_ category: NotificationCategory) -> String {
        let actions = category.actions.map { action in
            var options: [String] = []
            if action.options.contains(.foreground) { options.append(".foreground") }
            if action.options.contains(.destructive) { options.append(".destructive") }
            if action.options.contains(.authenticationRequired) { options.append(".authenticationRequired") }
            let target =
                switch action.target {
                case .link(let template): ".link(\(string(template.text)))"
                case .payloadLink: ".payloadLink"
                case .handler: ".handler"
                }
            return call(
                "NotificationAction",
                [
                    ("id", string(action.id), false), ("title", string(action.title), false),
                    ("options", "[" + options.joined(separator: ", ") + "]", options.isEmpty),
                    ("target", target, false),
                ]
            )
        }
        return call(
            "NotificationCategory",
            multiline: true,
            [
                ("id", string(category.id), false), ("actions", list(actions), false),
                ("reportsDismiss", "true", !category.reportsDismiss),
            ]
        )
    }

    /// A preset by name (`.braze`); a provider the manifest describes, in full.
    static func provider(_ provider: NotificationProvider) -> String {
        if NotificationProvider.preset(named: provider.name) == provider { return "." + provider.name }
        let markers = provider.internalMarkers.map { marker in
            "NotificationProvider.InternalMarker(\(path(marker.path)), "
                + (marker.equals.map { "equals: \(string($0))" } ?? ".\(marker.form.rawValue)") + ")"
        }
        // The sample, with the placeholder where its link goes.
        let placeholder = "{link}"
        let buttons: String? =
            switch provider.buttons {
            case nil: nil
            case .keyed(let object, let links): ".keyed(\(path(object)), links: \(list(links.map(location))))"
            case .listed(let list, let identifier, let link):
                ".listed(\(path(list)), identifier: \(path(identifier)), link: \(location(link)))"
            case .tapLink(let pushes): ".tapLink(pushes: [" + pushes.map(path).joined(separator: ", ") + "])"
            case .numbered(let entries, let prefix, let first, let links):
                ".numbered(\(path(entries)), prefix: \(string(prefix)), first: \(first), links: \(list(links.map(location))))"
            }
        return call(
            "NotificationProvider",
            multiline: true,
            [
                ("name", string(provider.name), false),
                ("title", string(provider.title), false),
                ("links", list(provider.links.map(location)), false),
                ("buttons", buttons ?? "nil", buttons == nil),
                ("internalMarkers", list(markers), markers.isEmpty),
                ("reference", string(provider.reference), false),
                (
                    "samplePayload",
                    "NotificationProvider.sample(\(payload(provider.samplePayload(placeholder))), opening: "
                        + "\(string(placeholder)))", false
                ),
            ]
        )
    }

    static func location(_ location: NotificationProvider.Location) -> String {
        guard let condition = location.condition else { return "NotificationProvider.Location(\(path(location.path)))" }
        return "NotificationProvider.Location(\(path(location.path)), when: (\(path(condition.path)), "
            + "\(string(condition.equals))))"
    }

    static func path(_ path: PayloadPath) -> String {
        "PayloadPath(" + path.keys.map(string).joined(separator: ", ") + ")"
    }

    static func payload(_ value: PayloadValue) -> String {
        switch value {
        case .string(let text): ".string(\(string(text)))"
        case .int(let number): ".int(\(number))"
        case .double(let number):
            number.isNaN
                ? ".double(.nan)"
                : number.isInfinite ? ".double(\(number < 0 ? "-" : "").infinity)" : ".double(\(number))"
        case .bool(let flag): ".bool(\(flag))"
        case .null: ".null"
        case .array(let values): ".array([" + values.map(payload).joined(separator: ", ") + "])"
        case .object(let members):
            members.isEmpty
                ? ".object([:])"
                : ".object(["
                    + members.keys.sorted().map { "\(string($0)): \(payload(members[$0] ?? .null))" }
                    .joined(separator: ", ") + "])"
        }
    }

    /// A list literal, one element a line when there are several or one spans lines.
    static func list(_ elements: [String]) -> String {
        guard elements.count > 1 || elements.contains(where: { $0.contains("\n") }) else {
            return "[" + elements.joined() + "]"
        }
        return "[\n" + elements.map { indented($0) + "," }.joined(separator: "\n") + "\n]"
    }
}
