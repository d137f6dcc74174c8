/// The one rule for an Apple application identifier, `<team ID>.<bundle ID>`, as the manifest's
/// `appIDs` and an association file's `appIDs`, `appID` and `apps` name an app.
///
/// The team ID (Apple calls it the application identifier prefix) is 10 uppercase letters and
/// digits; the bundle ID holds only `A–Z a–z 0–9 - .` (Apple's rule for `CFBundleIdentifier`). iOS
/// compares the whole string with the signed app's identifier, so an ID of any other shape never
/// matches an app, and nothing in the file or the manifest is substituted: `$(DEVELOPMENT_TEAM)` is
/// text, not a build setting.
///
/// ```swift
/// AppID.problems("ABCDE12345.com.example.app")  // []
/// AppID.problems("com.example.app").first?.message
/// // "'com.example.app' has no team ID: write TEAMID.com.example.app, …"
/// ```
package enum AppID {
    /// What is wrong with `appID`: errors for a shape no app can have, warnings for a
    /// well-formed placeholder. Empty when it is a real-looking identifier.
    package static func problems(_ appID: String) -> [AASAProblem] {
        let example =
            "write the team ID (10 characters, in the Apple Developer account's Membership details) "
            + "then the bundle ID, as in ABCDE12345.com.example.app"
        if appID.contains("$(") || appID.contains("${") || appID.contains("DEVELOPMENT_TEAM")
            || appID.contains("PRODUCT_BUNDLE_IDENTIFIER")
        {
            return [
                AASAProblem(
                    "'\(appID)' names Xcode build settings; they are not substituted here, so no app has this ID: "
                        + example + "."
                )
            ]
        }
        guard let dot = appID.firstIndex(of: ".") else {
            return [AASAProblem("'\(appID)' is not an app ID: " + example + ".")]
        }
        let team = appID[..<dot]
        let bundle = appID[appID.index(after: dot)...]
        guard isTeamID(team) else {
            if isBundleID(Substring(appID)), team.lowercased() == team {
                return [
                    AASAProblem("'\(appID)' has no team ID: write TEAMID.\(appID), with your 10-character team ID.")
                ]
            }
            let placeholder = looksLikePlaceholder(team) ? " It looks like a placeholder." : ""
            return [
                AASAProblem(
                    "'\(team)' in '\(appID)' is not a team ID, which is 10 uppercase letters and digits: "
                        + example + ".\(placeholder)"
                )
            ]
        }
        guard isBundleID(bundle) else {
            return [
                AASAProblem(
                    "'\(bundle)' in '\(appID)' is not a bundle ID: it may hold only letters A–Z and a–z, digits, "
                        + "'-' and '.', with no empty part."
                )
            ]
        }
        if looksLikePlaceholder(team) {
            return [
                AASAProblem(
                    "'\(team)' in '\(appID)' looks like a placeholder, not a team ID; replace it with yours.",
                    severity: .warning
                )
            ]
        }
        return []
    }

    private static func isTeamID(_ text: Substring) -> Bool {
        text.utf8.count == 10
            && text.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || isDigit($0) }
    }

    private static func isBundleID(_ text: Substring) -> Bool {
        !text.isEmpty
            && text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
                !part.isEmpty
                    && part.utf8.allSatisfy { byte in
                        // `| 0x20` lowercases an ASCII letter and maps nothing else into a–z.
                        isDigit(byte) || byte == UInt8(ascii: "-")
                            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                    }
            }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// Words documentation and templates put where a team ID goes, and runs of one character.
    private static func looksLikePlaceholder(_ team: Substring) -> Bool {
        let upper = team.uppercased()
        let words = ["TEAM", "YOUR", "XXXX", "PREFIX", "APPID", "1234567890", "0123456789", "ABCDEFGHIJ"]
        return words.contains { upper.contains($0) } || Set(upper).count == 1
    }
}
