import Foundation
import Waypoint

/// Decides, as iOS does, whether a URL opens an app under an apple-app-site-association file: what
/// `swcutil` does on a Mac, here on Linux and in CI.
///
/// The rules, from Apple's "applinks.Details.Components" and WWDC19 "What's New in Universal
/// Links": details and their components are evaluated in order and the first match decides; an
/// `exclude` component stops the link from opening the app. A missing `/`, `?` or `#` matches
/// anything. `caseSensitive` and `percentEncoded` (both `true` by default) come from the
/// component, else the details' `defaults`, else the file's. With `percentEncoded: true` the
/// pattern is compared with the URL's part as written; with `false` the part is percent-decoded
/// first (`+` stays a plus). A query dictionary matches item by item: an absent item, or one
/// without a value, matches as the empty string, and every instance of a repeated name must
/// match. `caseSensitive: false` lowercases both sides, Unicode-aware (`É` matches `é`). A details
/// entry with `components`, even an empty list, ignores its `paths`; one without reads the legacy
/// `paths` (path only, in order, `NOT ` excluding).
///
/// ```swift
/// AASAChecker(document: document).check("https://example.com/books/42").opensApp // true
/// ```
package struct AASAChecker: Sendable {
    package let document: AASADocument
    /// Every pattern of the document compiled once, by its text (`nil`: it does not compile). The
    /// linter checks a URL per route against every component: compiling per check made that
    /// quadratic work most of linting a large manifest.
    private let compiled: [String: AASAPattern?]
    private let compiledLegacy: [String: AASAPattern?]
    /// Per details entry, the app it opens.
    private let apps: [EntryApp]

    private enum EntryApp {
        /// The first app ID of a shape an app can have.
        case app(String)
        /// The entry names no app: an error of the file, but its patterns are still matched, so a
        /// file generated before the app IDs are known can be checked.
        case unnamed
        /// Every app ID it names is malformed: iOS looks entries up by the installed app's ID, so
        /// this one opens nothing.
        case unusable
    }

    package init(document: AASADocument) {
        self.document = document
        var compiled: [String: AASAPattern?] = [:]
        var compiledLegacy: [String: AASAPattern?] = [:]
        for detail in document.details {
            for path in detail.paths ?? [] {
                let text = Self.legacyPattern(path).text
                if compiledLegacy[text] == nil { compiledLegacy[text] = .some(try? AASAPattern(text)) }
            }
            for component in detail.components ?? [] {
                for (_, text) in component.patterns where compiled[text] == nil {
                    compiled[text] = .some(try? AASAPattern(text, variables: document.substitutionVariables))
                }
            }
        }
        self.compiled = compiled
        self.compiledLegacy = compiledLegacy
        apps = document.details.map { detail in
            if detail.appIDs.isEmpty { return .unnamed }
            return detail.appIDs.first { AppID.problems($0).allSatisfy { $0.severity != .error } }.map(EntryApp.app)
                ?? .unusable
        }
    }

    /// What the file decides for one URL, and why.
    package struct Verdict: Sendable, Hashable {
        package var url: String
        package var opensApp: Bool
        /// The first app ID of the deciding details entry: the app iOS opens.
        package var appID: String?
        /// The JSON path of the component or legacy path that decided
        /// (`applinks.details[0].components[2]`), `nil` when none did.
        package var location: String?
        /// That component as JSON, or that legacy path, as the file writes it.
        package var pattern: String?
        package var excluded: Bool
        package var reason: String

        package var json: PayloadValue {
            var object: [String: PayloadValue] = [
                "url": .string(url), "opensApp": .bool(opensApp), "excluded": .bool(excluded),
                "reason": .string(reason),
            ]
            if let appID { object["appID"] = .string(appID) }
            if let location { object["location"] = .string(location) }
            if let pattern { object["pattern"] = .string(pattern) }
            return .object(object)
        }
    }

    /// Decides a URL. Both `http` and `https` links are checked: Apple says "universal links are
    /// standard HTTP or HTTPS links" (Allowing apps and websites to link to your content); only the
    /// association file itself must be served over `https`.
    package func check(_ url: String) -> Verdict {
        guard let link = try? DeepLink(url), link.isWeb else {
            return Verdict(url: url, opensApp: false, excluded: false, reason: "it is not a valid http(s) URL")
        }
        guard document.services.contains(.applinks) else {
            let declared = document.services.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            return Verdict(
                url: url,
                opensApp: false,
                excluded: false,
                reason: "the file declares no 'applinks' (only \(declared)), so no link opens an app"
            )
        }
        let parts = withRawParts(of: link)
        // Each part as the characters patterns are matched against, made once per check.
        var prepared: [PreparedKey: [Character]] = [:]
        var nearest: String?
        var tried: Set<String> = []
        for (detailIndex, detail) in document.details.enumerated() {
            let appID: String?
            switch apps[detailIndex] {
            case .app(let named): appID = named
            case .unnamed: appID = nil
            case .unusable:
                if nearest == nil {
                    let names = detail.appIDs.map { "'\($0)'" }.joined(separator: ", ")
                    nearest = "applinks.details[\(detailIndex)] names no usable app ID (\(names)), so iOS skips it"
                }
                continue
            }
            guard let components = detail.components else {
                tried.insert("legacy path")
                for (index, written) in (detail.paths ?? []).enumerated() {
                    let (excluded, text) = Self.legacyPattern(written)
                    guard let pattern = compiledLegacy[text] ?? nil, pattern.matches(parts.path) else { continue }
                    return Verdict(
                        url: url,
                        opensApp: !excluded,
                        appID: appID,
                        location: "applinks.details[\(detailIndex)].paths[\(index)]",
                        pattern: written,
                        excluded: excluded,
                        reason: "the legacy path '\(written)' " + (excluded ? "excludes it" : "matches its path")
                    )
                }
                continue
            }
            tried.insert("component")
            for (index, component) in components.enumerated() {
                let caseSensitive =
                    component.settings.caseSensitive ?? detail.defaults.caseSensitive ?? document.defaults.caseSensitive
                    ?? true
                let encoded =
                    component.settings.percentEncoded ?? detail.defaults.percentEncoded ?? document.defaults
                    .percentEncoded ?? true
                let location = "applinks.details[\(detailIndex)].components[\(index)]"
                let written = "\(component.json)"
                switch test(component, parts, caseSensitive: caseSensitive, percentEncoded: encoded, &prepared) {
                case .matches:
                    return Verdict(
                        url: url,
                        opensApp: !component.exclude,
                        appID: appID,
                        location: location,
                        pattern: written,
                        excluded: component.exclude,
                        reason: "the component \(written) " + (component.exclude ? "excludes it" : "matches it")
                    )
                case .pathDiffers:
                    continue
                case .differs(let why):
                    if nearest == nil { nearest = "\(location) \(written) matches the path, but \(why)" }
                }
            }
        }
        let what = tried.count == 2 ? "no component or legacy path" : tried.first.map { "no \($0)" } ?? "no entry"
        return Verdict(
            url: url,
            opensApp: false,
            excluded: false,
            reason: "\(what) matches" + (nearest.map { "; nearest: \($0)" } ?? "")
        )
    }

    /// A legacy `paths` entry: `NOT ` before a pattern excludes what it matches.
    private static func legacyPattern(_ entry: String) -> (excluded: Bool, text: String) {
        entry.hasPrefix("NOT ") ? (true, String(entry.dropFirst(4))) : (false, entry)
    }

    /// A URL's parts as written (percent-encoded), and its query items.
    struct RawParts {
        var path: String
        var query: String
        var fragment: String
        var items: [(name: String, value: String)]
    }

    private func withRawParts(of link: DeepLink) -> RawParts {
        let text = link.string
        var rest = Substring(text)
        var fragment = ""
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        var query = ""
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        let afterScheme = rest.range(of: "://").map { rest[$0.upperBound...] } ?? rest
        let path = afterScheme.firstIndex(of: "/").map { String(afterScheme[$0...]) } ?? "/"
        let items = query.split(separator: "&").map { pair -> (String, String) in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
        return RawParts(path: path, query: query, fragment: fragment, items: items)
    }

    /// A URL part (decoded or not) and the case setting it is prepared for.
    private struct PreparedKey: Hashable {
        var text: String
        var caseSensitive: Bool
    }

    private enum ComponentTest {
        case matches
        case pathDiffers
        /// The path matches but another part does not: why, for the verdict's reason.
        case differs(String)
    }

    private func test(
        _ component: AASADocument.Component,
        _ parts: RawParts,
        caseSensitive: Bool,
        percentEncoded: Bool,
        _ prepared: inout [PreparedKey: [Character]]
    ) -> ComponentTest {
        // `percentEncoded: false` compares decoded text; `+` stays a plus, as in a URL's path (it
        // means a space only in HTML form encoding, which universal links do not apply).
        func decode(_ text: String) -> String {
            percentEncoded ? text : (text.removingPercentEncoding ?? text)
        }
        func test(_ pattern: String?, _ text: String) -> Bool {
            guard let pattern else { return true }
            guard let compiled = compiled[pattern] ?? nil else { return false }
            let key = PreparedKey(text: decode(text), caseSensitive: caseSensitive)
            if prepared[key] == nil {
                prepared[key] = AASAPattern.characters(of: key.text, caseSensitive: caseSensitive)
            }
            return compiled.matches(prepared[key] ?? [], caseSensitive: caseSensitive)
        }
        guard test(component.path, parts.path) else { return .pathDiffers }
        switch component.query {
        case nil: break
        case .whole(let pattern):
            guard test(pattern, parts.query) else { return .differs("not the query '\(parts.query)'") }
        case .items(let items):
            // WWDC19 "What's New in Universal Links": an item with no value, and an absent item,
            // match as the empty string; every instance of a repeated name must match.
            let fold = { (name: String) in caseSensitive ? name : name.lowercased() }
            for (name, pattern) in items.sorted(by: { $0.key < $1.key }) {
                let values = parts.items.filter { fold(decode($0.name)) == fold(name) }.map(\.value)
                for value in values.isEmpty ? [""] : values where !test(pattern, value) {
                    let shown = values.isEmpty ? "absent (matched as '')" : "'\(value)'"
                    return .differs("not the query item '\(name)': \(shown) does not match '\(pattern)'")
                }
            }
        }
        guard test(component.fragment, parts.fragment) else {
            return .differs("not the fragment '\(parts.fragment)'")
        }
        return .matches
    }
}
