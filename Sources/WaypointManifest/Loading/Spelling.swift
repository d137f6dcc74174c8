import Waypoint

/// Names people type — commands, push providers — and the nearest known one when a name is a slip,
/// so an error says "did you mean" rather than only listing what there is.
package enum Spelling {
    /// The known name nearest to `name`, when it is close enough to be a slip of it: at most two
    /// edits (or a third of the name's length), ignoring case, `-`, `_`, `.` and spaces.
    ///
    /// ```swift
    /// Spelling.nearest(to: "one-signal", in: ["braze", "oneSignal"])   // "oneSignal"
    /// Spelling.nearest(to: "pusher", in: ["braze", "oneSignal"])       // nil
    /// ```
    package static func nearest(to name: String, in names: [String]) -> String? {
        let typed = folded(name)
        let scored = names.map { (name: $0, distance: distance(typed, folded($0))) }
        guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
        return best.distance <= max(2, best.name.count / 3) ? best.name : nil
    }

    /// The name `text` means: the one a name it is also known by stands for (`fcm` → `firebase`), else
    /// the nearest of `names` or of those other names.
    ///
    /// ```swift
    /// Spelling.meant("sheet", in: ["push", "present"], otherNames: ["sheet": "present"])   // "present"
    /// ```
    package static func meant(_ text: String, in names: [String], otherNames: [String: String] = [:]) -> String? {
        if let known = otherNames.first(where: { $0.key.lowercased() == text.lowercased() }) { return known.value }
        guard let nearest = nearest(to: text, in: names + otherNames.keys.sorted()) else { return nil }
        return otherNames[nearest] ?? nearest
    }

    /// The Levenshtein distance: insertions, deletions and substitutions.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// `name` as it is compared: lower case, without the punctuation people put between words.
    private static func folded(_ name: String) -> String {
        String(name.lowercased().filter { !"-_. ".contains($0) })
    }
}

extension NotificationProvider {
    /// Names teams know the providers by that are not the presets' (the preset's name is its Swift
    /// spelling): each leads to the preset it means.
    package static let otherNames: [String: String] = [
        "fcm": "firebase", "firebaseMessaging": "firebase", "firebaseCloudMessaging": "firebase",
        "awsPinpoint": "pinpoint", "amazonPinpoint": "pinpoint", "awsEndUserMessaging": "pinpoint",
        "endUserMessaging": "pinpoint", "urbanAirship": "airship", "appboy": "braze",
        "journeyOptimizer": "adobeJourneyOptimizer", "ajo": "adobeJourneyOptimizer",
        "aepMessaging": "adobeJourneyOptimizer", "adobeCampaignStandard": "adobeCampaign",
        "adobeCampaignClassic": "adobeCampaign", "campaignStandard": "adobeCampaign",
        "campaignClassic": "adobeCampaign",
        "adbMobile": "adobeMobileServices", "mobileServices": "adobeMobileServices",
        "expoNotifications": "expo", "smartech": "netcore", "netcoreCloud": "netcore", "netcoreSmartech": "netcore",
        "optimove": "kumulos", "optimoveMobile": "kumulos", "optimobile": "kumulos",
        "salesforce": "salesforceMarketingCloud", "sfmc": "salesforceMarketingCloud",
        "marketingCloud": "salesforceMarketingCloud", "mobilePush": "salesforceMarketingCloud",
        "useinsider": "insider",
    ]

    /// Senders teams ask for that have no preset, and why: what a manifest or the tool says
    /// instead of "unknown".
    package static let withoutPreset: [String: String] = [
        "webEngage":
            "WebEngage has no preset: its SDK reads the tapped link itself (the payload's key is not documented) "
            + "and hands it to WEGHandleDeeplink(_:userData:); pass that link to the intake (intake.url(deeplink)), "
            + "or describe WebEngage's payload as a provider of the manifest's own."
    ]

    /// The preset a manifest or the tool names (or one of the manifest's `own` providers), in any
    /// case, or a message that says what to write: the preset meant by a name it is known by, or
    /// the nearest, and every name.
    ///
    /// ```swift
    /// NotificationProvider.preset(spelled: "fcm")
    /// // .failure("Unknown push provider 'fcm'. Did you mean 'firebase'? The providers are: braze, …")
    /// ```
    package static func preset(
        spelled name: String,
        among own: [NotificationProvider] = []
    ) -> Result<NotificationProvider, ProviderNameError> {
        if let provider = own.first(where: { $0.name.lowercased() == name.lowercased() }) ?? preset(named: name) {
            return .success(provider)
        }
        if let reason = withoutPreset.first(where: { $0.key.lowercased() == name.lowercased() })?.value {
            return .failure(ProviderNameError(message: reason))
        }
        let names = own.map(\.name) + presets.map(\.name)
        let suggestion = Spelling.meant(name, in: names, otherNames: otherNames).map { " Did you mean '\($0)'?" } ?? ""
        return .failure(
            ProviderNameError(
                message: "Unknown push provider '\(name)'.\(suggestion) The providers are: "
                    + "\(names.joined(separator: ", "))."
            )
        )
    }
}

/// A push provider name that names no preset, with what to write instead.
package struct ProviderNameError: Error, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}
