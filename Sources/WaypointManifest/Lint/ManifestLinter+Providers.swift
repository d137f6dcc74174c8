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
}
