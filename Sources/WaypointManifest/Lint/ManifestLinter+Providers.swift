import Waypoint

extension ManifestLinter {
    /// Warns when a push in one listed provider's shape also carries a link another reader takes:
    /// the app's own keys, another provider's places, or a rule that applies. The first reader in
    /// the intake's order wins (keys, providers as listed, rules), which may not be the link the
    /// marketer set.
    func providerOverlaps() -> [LintFinding] {
        let settings = manifest.notifications
        var findings: [LintFinding] = []
        for provider in settings.providers where !provider.links.isEmpty {
            let sample = provider.samplePayload("myapp://waypoint-lint")
            var readers: [String] = []
            for key in settings.linkKeys {
                // The app's key at the provider's own place (Klaviyo's `url`) reads the same link.
                for keyPath in [key, "data." + key]
                where sample[keyPath]?.text != nil
                    && !provider.links.contains(where: { $0.path.keys.joined(separator: ".") == keyPath })
                {
                    readers.append("the app's key '\(keyPath)'")
                }
            }
            for other in settings.providers where other != provider {
                if other.link(in: sample) != nil { readers.append(other.places) }
            }
            for (rule, _) in settings.rules where rule.matches(sample) {
                readers.append("the rule for '\(rule.link)'")
            }
            guard !readers.isEmpty else { continue }
            findings.append(
                LintFinding(
                    severity: .warning,
                    code: "provider-overlap",
                    location: nil,
                    message:
                        "A push in \(provider.title)'s shape (\(provider.links.map(\.description).joined(separator: ", "))) "
                        + "can also be read by \(readers.joined(separator: "; ")); the app's keys come first, then the "
                        + "providers as listed, then the rules."
                )
            )
        }
        return findings
    }

    /// Warns for each pair of enabled providers one push could match both of: when both read a
    /// link, the one listed first gives it; when one marks its own pushes, its marker stops the
    /// other's link from being routed. The intake's rule is fixed (the app's keys, then the
    /// providers in the order listed, then the rules; any enabled provider's marker first of all),
    /// and this says where it decides.
    func providerOrder() -> [LintFinding] {
        let providers = manifest.notifications.providers
        var findings: [LintFinding] = []
        for (index, first) in providers.enumerated() {
            for later in providers.dropFirst(index + 1) {
                var effects: [String] = []
                if !first.links.isEmpty && !later.links.isEmpty {
                    effects.append(
                        "a push with a link at both \(first.title)'s and \(later.title)'s places opens \(first.title)'s, "
                            + "as it is listed first"
                    )
                }
                for (marking, reading) in [(first, later), (later, first)]
                where !marking.internalMarkers.isEmpty && !reading.links.isEmpty {
                    effects.append(
                        "a push carrying \(marking.title)'s marker (\(marking.internalMarkers.map(\.description).joined(separator: ", "))) "
                            + "is not routed, whatever link of \(reading.title)'s it holds"
                    )
                }
                guard !effects.isEmpty else { continue }
                findings.append(
                    LintFinding(
                        severity: .warning,
                        code: "provider-order",
                        location: nil,
                        message: "\(first.name) and \(later.name) are both enabled: " + effects.joined(separator: "; ")
                            + ". List only the providers the app's pushes come from, or first the one whose link "
                            + "must win."
                    )
                )
            }
        }
        return findings
    }

    /// Checks each provider the manifest describes against the samples given beside it, through
    /// the intake the app builds (the app's keys, the providers in order, the rules): a sample must
    /// do what it says, be read by the provider it stands under, and open a link a route matches;
    /// a provider without samples, or with a place no sample reaches, is a warning.
    func ownProviderSamples(_ router: Router<ManifestRoute>?) -> [LintFinding] {
        let intake = manifest.makeIntake()
        let resolver = router.map { LinkResolver(router: $0, policy: manifest.makePolicy()) }
        var findings: [LintFinding] = []
        for own in manifest.notifications.ownProviders {
            let provider = own.provider
            func finding(_ severity: LintFinding.Severity, _ code: String, _ at: SourceLocation, _ message: String) {
                findings.append(LintFinding(severity: severity, code: code, location: at, message: message))
            }
            guard !own.samples.isEmpty else {
                finding(
                    .warning,
                    "provider-without-samples",
                    own.location,
                    "The push provider '\(provider.name)' has no samples: add payloads it sends under 'samples' so "
                        + "lint can check its key paths against them."
                )
                continue
            }
            var reached: Set<String> = []
            for (index, sample) in own.samples.enumerated() {
                let what =
                    "Sample \(index + 1) of '\(provider.name)'"
                    + (sample.action == NotificationActionIdentifier.default ? "" : " (button '\(sample.action)')")
                let reading = intake.readNotification(
                    NotificationResponseSnapshot(
                        actionIdentifier: sample.action,
                        requestIdentifier: "lint",
                        userInfo: sample.payload
                    )
                )
                let readBy = reading.reader.map { " (read by \($0))" } ?? ""
                let did: String
                var intakeSaid = ""
                switch reading.result {
                case .link(let link, _): did = "opens '\(link.string)'"
                case .action: did = "opens nothing"
                case .dismissed: did = "is a dismissal"
                case .failure(let error) where error.code == .notForRouting: did = "is the provider's own push"
                case .failure(let error):
                    did =
                        switch error.code {
                        case .noLink: "opens nothing"
                        case .unmappedAction: "taps a button neither the payload nor the app's categories have"
                        default: "opens nothing the app takes"
                        }
                    intakeSaid = " The intake says: \(error.message)"
                }
                let ok: Bool
                switch (sample.outcome, reading.result) {
                case (.opens(let expected), .link(let link, _)):
                    let wanted = (try? DeepLink(text: expected, source: .notification))?.string ?? expected
                    ok = link.string == wanted
                    if ok, let resolver, resolver.resolve(link).match == nil {
                        finding(
                            .warning,
                            "provider-sample-leads-nowhere",
                            sample.location,
                            "\(what) opens '\(link.string)', which no route matches."
                        )
                    }
                case (.ownPush, .failure(let error)): ok = error.code == .notForRouting
                case (.opensNothing, .action): ok = true
                // A sample that opens nothing because its action names no button is a slip, not this.
                case (.opensNothing, .failure(let error)): ok = error.code == .noLink
                default: ok = false
                }
                let expected =
                    switch sample.outcome {
                    case .opens(let link): "opens '\(link)'"
                    case .ownPush: "is the provider's own push"
                    case .opensNothing: "opens nothing"
                    }
                // Right for the wrong reason: another reader took it before this provider.
                var readByOther = false
                switch reading.reader {
                case .provider(let reader, let place)? where reader == provider: reached.insert("link \(place)")
                case .button(let reader, _, _)? where reader == provider: reached.insert("buttons")
                case .ownPush(let reader, let marker)? where reader == provider: reached.insert("marker \(marker.path)")
                case nil: break
                default: readByOther = sample.outcome != .opensNothing
                }
                if !ok {
                    finding(
                        .error,
                        "provider-sample",
                        sample.location,
                        "\(what) \(did)\(readBy), but says it \(expected).\(intakeSaid)"
                            + Self.hints(provider, sample.payload).map { " " + $0 }.joined()
                    )
                } else if readByOther {
                    finding(
                        .warning,
                        "provider-sample",
                        sample.location,
                        "\(what) \(did), but through something else\(readBy), not '\(provider.name)''s places."
                    )
                }
            }
            let places =
                provider.links.map { "link \($0)" } + (provider.buttons == nil ? [] : ["buttons"])
                + provider.internalMarkers.map { "marker \($0.path)" }
            for place in places where !reached.contains(place) {
                finding(
                    .warning,
                    "provider-place-untested",
                    own.location,
                    "No sample of '\(provider.name)' is read through its \(place): add one that is, so a slip in "
                        + "that key path shows here rather than on a user's tap."
                )
            }
        }
        return findings
    }

    /// What a sample's payload holds near the places a provider reads that find nothing: the key
    /// path it probably meant, an object where a link should be, or a text where a flag should be.
    /// (A key with a dot of its own needs no quotes to be found: a path reads as a key path does.)
    static func hints(_ provider: NotificationProvider, _ payload: PayloadValue) -> [String] {
        var hints: [String] = []
        let leaves = leafPaths(in: payload)
        for place in provider.links where place.path.value(in: payload) == nil {
            if let meant = Spelling.nearest(to: place.path.description, in: leaves.map(\.description)) {
                hints.append("The payload has no \(place.path); did you mean \(meant)?")
            }
        }
        for place in provider.links {
            switch place.path.value(in: payload) {
            case .object?, .array?: hints.append("At \(place.path) the payload holds an object or a list, not a link.")
            default: break
            }
        }
        for marker in provider.internalMarkers where marker.form == .flag && marker.equals == nil {
            if case .string(let text)? = marker.path.value(in: payload), !marker.marks(payload) {
                hints.append(
                    "At \(marker.path) the payload holds '\(text)': a flag marker takes true or 1; for one value, "
                        + "write {equals: {\(marker.path): \(text)}}."
                )
            }
        }
        return hints
    }

    /// The paths of a payload's texts, objects' keys in order.
    private static func leafPaths(in payload: PayloadValue, under path: [String] = []) -> [PayloadPath] {
        switch payload {
        case .object(let members):
            members.keys.sorted().flatMap { leafPaths(in: members[$0] ?? .null, under: path + [$0]) }
        case .string: path.isEmpty ? [] : [PayloadPath(keys: path)]
        default: []
        }
    }
}
