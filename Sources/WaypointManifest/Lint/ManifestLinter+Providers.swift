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
                for keyPath in [key, "data." + key] where sample[keyPath]?.text != nil {
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
}
