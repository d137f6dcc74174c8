import Waypoint

extension ManifestLoader {
    /// `notifications.providers`: presets by name, and providers the manifest describes itself
    /// (a mapping), in the order listed, which is the order the intake reads them in.
    static func readProviders(
        _ node: ManifestNode
    ) throws(ManifestError) -> (
        [NotificationProvider], [ManifestProvider]
    ) {
        var providers: [NotificationProvider] = []
        var own: [ManifestProvider] = []
        for item in try node.items() {
            let provider: NotificationProvider
            if item.isMapping {
                let described = try readOwnProvider(item)
                own.append(described)
                provider = described.provider
            } else if let described = try describedNames(node).first(where: { $0.lowercased() == text(item) }) {
                throw item.error(
                    "'\(described)' is described in this list already: the place of its description is its place in "
                        + "the order the providers are read; list it once."
                )
            } else {
                switch NotificationProvider.preset(spelled: try item.string()) {
                case .success(let found): provider = found
                case .failure(let unknown):
                    throw item.error(
                        unknown.message
                            + " A sender with no preset is described in place: {name: …, links: […], samples: […]}."
                    )
                }
            }
            guard !providers.contains(where: { $0.name.lowercased() == provider.name.lowercased() }) else {
                throw item.error("The push provider '\(provider.name)' is listed twice.")
            }
            providers.append(provider)
        }
        return (providers, own)
    }

    /// The names of the providers `node` describes in place.
    private static func describedNames(_ node: ManifestNode) throws(ManifestError) -> [String] {
        var names: [String] = []
        for item in try node.items() where item.isMapping {
            if let name = try item.mapping(allowed: ownProviderKeys)["name"] { names.append(try name.string()) }
        }
        return names
    }

    /// A bare name in the list, lower-cased for comparing.
    private static func text(_ item: ManifestNode) -> String? { try? item.string().lowercased() }

    private static let ownProviderKeys = ["name", "title", "reference", "links", "buttons", "internal", "samples"]

    /// One provider of the manifest's own: its places, and the samples `waypoint lint` checks them
    /// against.
    private static func readOwnProvider(_ node: ManifestNode) throws(ManifestError) -> ManifestProvider {
        let fields = try node.mapping(allowed: [
            "name", "title", "reference", "links", "buttons", "internal", "samples",
        ])
        guard let nameNode = fields["name"] else {
            throw node.error("A push provider described in the manifest needs 'name'.")
        }
        let name = try nameNode.nonEmptyString()
        let known =
            NotificationProvider.otherNames.first { $0.key.lowercased() == name.lowercased() }?.value
            ?? NotificationProvider.preset(named: name)?.name
        if let known {
            throw nameNode.error(
                "'\(name)' is the name of the preset '\(known)': list it by name (providers: [\(known)]), or give "
                    + "the provider described here a name of its own."
            )
        }
        var links: [NotificationProvider.Location] = []
        for item in try fields["links"]?.items() ?? [] { links.append(try readLocation(item)) }
        let buttons = try fields["buttons"].map { node throws(ManifestError) in try readButtons(node) }
        var markers: [NotificationProvider.InternalMarker] = []
        for item in try fields["internal"]?.items() ?? [] {
            let marker = try item.mapping(allowed: ["flag", "value", "equals"])
            switch (marker["flag"], marker["value"], marker["equals"]) {
            case (let flag?, nil, nil): markers.append(.init(try flag.payloadPath(), .flag))
            case (nil, let value?, nil): markers.append(.init(try value.payloadPath(), .value))
            case (nil, nil, let equals?):
                let (path, value) = try readCondition(equals)
                markers.append(.init(path, equals: value))
            default:
                throw item.error(
                    "A marker of the provider's own pushes is '{flag: KEY.PATH}' (true or 1 there marks one), "
                        + "'{value: KEY.PATH}' (any id, list or object there marks one) or "
                        + "'{equals: {KEY.PATH: VALUE}}' (that value there marks one)."
                )
            }
        }
        guard !links.isEmpty || buttons != nil || !markers.isEmpty else {
            throw node.error("The push provider '\(name)' needs 'links', 'buttons' or 'internal': where it puts what.")
        }
        if case .tapLink? = buttons, links.isEmpty, let buttonsNode = fields["buttons"] {
            throw buttonsNode.error(
                "The push provider '\(name)' has buttons that open the tap's link, but no 'links': say where that is."
            )
        }
        var samples: [ProviderSample] = []
        for item in try fields["samples"]?.list() ?? [] { samples.append(try readSample(item)) }
        let tapSample = samples.first { sample in
            if case .opens = sample.outcome { sample.action == NotificationActionIdentifier.default } else { false }
        }
        let samplePayload: @Sendable (String) -> PayloadValue
        if let tapSample, let place = links.first(where: { $0.link(in: tapSample.payload) != nil }) {
            // The sample's own link, as written there, gives way to the new one.
            samplePayload = NotificationProvider.sample(
                place.path.setting("{link}", in: tapSample.payload),
                opening: "{link}"
            )
        } else {
            // No sample of a tap: the link at the first place, and whatever its condition asks for.
            var template: PayloadValue = ["aps": ["alert": "Hello"]]
            if let place = links.first {
                if let condition = place.condition {
                    template = condition.path.setting(.string(condition.equals), in: template)
                }
                template = place.path.setting("{link}", in: template)
            }
            samplePayload = NotificationProvider.sample(template, opening: "{link}")
        }
        let provider = NotificationProvider(
            name: name,
            title: try fields["title"]?.nonEmptyString() ?? name,
            links: links,
            buttons: buttons,
            internalMarkers: markers,
            // The file's name, not its path: generated code must not depend on where it was built.
            reference: try fields["reference"]?.nonEmptyString()
                ?? "described in \(node.file.split(separator: "/").last.map(String.init) ?? node.file), line \(node.location.line)",
            samplePayload: samplePayload
        )
        return ManifestProvider(provider: provider, samples: samples, location: node.location)
    }

    /// A button's places for its link: at least one.
    private static func readPlaces(_ node: ManifestNode) throws(ManifestError) -> [NotificationProvider.Location] {
        var places: [NotificationProvider.Location] = []
        for item in try node.items() { places.append(try readLocation(item)) }
        guard !places.isEmpty else { throw node.error("'\(node.path)' names at least one place of a button's link.") }
        return places
    }

    /// A place for a link: `KEY.PATH`, or `{path: KEY.PATH, when: {KEY.PATH: VALUE}}`.
    private static func readLocation(_ node: ManifestNode) throws(ManifestError) -> NotificationProvider.Location {
        guard node.isMapping else { return NotificationProvider.Location(try node.payloadPath()) }
        let fields = try node.mapping(allowed: ["path", "when"])
        guard let path = fields["path"] else {
            throw node.error("A link's place is 'KEY.PATH' or '{path: KEY.PATH, when: {KEY.PATH: VALUE}}'.")
        }
        guard let when = fields["when"] else { return NotificationProvider.Location(try path.payloadPath()) }
        let condition = try readCondition(when)
        return NotificationProvider.Location(try path.payloadPath(), when: (condition.path, condition.value))
    }

    /// `{KEY.PATH: VALUE}`: one key path and the text it must hold.
    private static func readCondition(_ node: ManifestNode) throws(ManifestError) -> (path: PayloadPath, value: String)
    {
        let pairs = try node.entries()
        guard pairs.count == 1, let pair = pairs.first else {
            throw node.error("'\(node.path)' holds exactly one key path and its value, like {action.type: openUrl}.")
        }
        guard let path = PayloadPath(dotted: pair.key) else {
            throw node.error(
                "'\(pair.key)' is not a key path: keys joined by '.', a key that holds a dot in double quotes."
            )
        }
        return (path, try pair.value.string())
    }

    /// Buttons declared in the payload: `{list: KEY.PATH, identifier: KEY, link: PLACE}` (entries
    /// found by identifier), `{keyed: KEY.PATH, links: [PLACE…]}` (an object keyed by it) or
    /// `{numbered: KEY.PATH, prefix: TEXT, first: N, links: [PLACE…]}` (entries by position), or
    /// `{tapLink: [KEY.PATH…]}` (any button of a push marked so opens the tap's link).
    private static func readButtons(_ node: ManifestNode) throws(ManifestError) -> NotificationProvider.ButtonLinks {
        let fields = try node.mapping(
            allowed: ["list", "identifier", "link", "keyed", "links", "numbered", "prefix", "first", "tapLink"]
        )
        if let tapLink = fields["tapLink"] {
            guard fields.count == 1 else {
                throw node.error(
                    "Buttons that open the tap's link are '{tapLink: [KEY.PATH…]}' alone: the places that mark the "
                        + "provider's pushes."
                )
            }
            var pushes: [PayloadPath] = []
            for item in try tapLink.items() { pushes.append(try item.payloadPath()) }
            guard !pushes.isEmpty else { throw tapLink.error("'tapLink' names at least one place that marks a push.") }
            return .tapLink(pushes: pushes)
        }
        if let numbered = fields["numbered"] {
            guard let prefix = fields["prefix"], let links = fields["links"], fields["list"] == nil,
                fields["keyed"] == nil, fields["identifier"] == nil, fields["link"] == nil
            else {
                throw node.error(
                    "Numbered buttons are '{numbered: KEY.PATH, prefix: TEXT, first: 0, links: [KEY.PATH…]}': the "
                        + "action 'TEXT3' is the entry numbered 3, counting from 'first'."
                )
            }
            let places = try readPlaces(links)
            return .numbered(
                try numbered.payloadPath(),
                prefix: try prefix.string(),
                first: try fields["first"]?.int() ?? 0,
                links: places
            )
        }
        switch (fields["list"], fields["keyed"]) {
        case (let list?, nil):
            guard let identifier = fields["identifier"], let link = fields["link"], fields["links"] == nil else {
                throw node.error(
                    "Buttons in a list are '{list: KEY.PATH, identifier: KEY.PATH, link: KEY.PATH}': the entry whose "
                        + "identifier is the tapped action's holds the button's link."
                )
            }
            return .listed(
                try list.payloadPath(),
                identifier: try identifier.payloadPath(),
                link: try readLocation(link)
            )
        case (nil, let keyed?):
            guard let links = fields["links"], fields["identifier"] == nil, fields["link"] == nil else {
                throw node.error(
                    "Buttons keyed by action are '{keyed: KEY.PATH, links: [KEY.PATH…]}': the member named like the "
                        + "tapped action holds the button's link."
                )
            }
            return .keyed(try keyed.payloadPath(), links: try readPlaces(links))
        default:
            throw node.error(
                "'buttons' takes one of 'list' (entries found by an identifier), 'keyed' (an object keyed by the "
                    + "action), 'numbered' (entries by position) or 'tapLink' (every button opens the tap's link)."
            )
        }
    }

    /// `{payload: {…}, action: ID, opens: LINK | ownPush: true | opensNothing: true}`.
    private static func readSample(_ node: ManifestNode) throws(ManifestError) -> ProviderSample {
        let fields = try node.mapping(allowed: ["payload", "action", "opens", "ownPush", "opensNothing"])
        guard let payloadNode = fields["payload"] else {
            throw node.error("A sample needs 'payload': the push as the provider sends it (YAML or pasted JSON).")
        }
        let payload = try payloadNode.payload()
        guard case .object = payload else { throw payloadNode.error("A sample's 'payload' must be a mapping.") }
        let outcome: ProviderSample.Outcome
        switch (fields["opens"], fields["ownPush"], fields["opensNothing"]) {
        case (let opens?, nil, nil): outcome = .opens(try opens.nonEmptyString())
        case (nil, let ownPush?, nil) where try ownPush.bool(): outcome = .ownPush
        case (nil, nil, let nothing?) where try nothing.bool(): outcome = .opensNothing
        default:
            throw node.error(
                "A sample says what it does with one of 'opens: LINK', 'ownPush: true' (the provider's own push, "
                    + "not for routing) or 'opensNothing: true'."
            )
        }
        return ProviderSample(
            payload: payload,
            action: try fields["action"]?.nonEmptyString() ?? NotificationActionIdentifier.default,
            outcome: outcome,
            location: node.location
        )
    }
}
