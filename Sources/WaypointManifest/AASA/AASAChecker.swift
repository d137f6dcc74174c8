import Foundation
import Waypoint

/// Decides, as iOS does, whether a URL opens an app under an apple-app-site-association file: what
/// `swcutil` does on a Mac, here on Linux and in CI.
///
/// Details and their components are evaluated in order and the first match decides; an `exclude`
/// component stops the link from opening the app. `caseSensitive` and `percentEncoded` (both
/// `true` by default) come from the component, else the details' `defaults`, else the file's. With
/// `percentEncoded: true` the pattern is compared with the URL's part as written (percent-encoded);
/// with `false` the part is decoded first. A query dictionary needs each named item present with a
/// matching value. `caseSensitive: false` lowercases both sides, Unicode-aware (`É` matches `é`). The
/// legacy `paths` form matches the path only, in order, `NOT ` excluding.
///
/// ```swift
/// AASAChecker(document: document).check("https://example.com/books/42").opensApp // true
/// ```
public struct AASAChecker: Sendable {
    public let document: AASADocument
    /// Every pattern of the document compiled once, by its text (`nil`: it does not compile). The
    /// linter checks a URL per route against every component: compiling per check made that
    /// quadratic work most of linting a large manifest.
    private let compiled: [String: AASAPattern?]
    private let compiledLegacy: [String: AASAPattern?]

    public init(document: AASADocument) {
        self.document = document
        var compiled: [String: AASAPattern?] = [:]
        var compiledLegacy: [String: AASAPattern?] = [:]
        for detail in document.details {
            for path in detail.paths ?? [] {
                let text = Self.legacyPattern(path).text
                if compiledLegacy[text] == nil { compiledLegacy[text] = .some(try? AASAPattern(text)) }
            }
            for component in detail.components {
                var texts = [component.path, component.fragment].compactMap { $0 }
                switch component.query {
                case .whole(let pattern): texts.append(pattern)
                case .items(let items): texts += items.map(\.value)
                case nil: break
                }
                for text in texts where compiled[text] == nil {
                    compiled[text] = .some(try? AASAPattern(text, variables: document.substitutionVariables))
                }
            }
        }
        self.compiled = compiled
        self.compiledLegacy = compiledLegacy
    }

    public struct Verdict: Sendable, Hashable {
        public var url: String
        public var opensApp: Bool
        public var appID: String?
        /// Which component (or legacy path) decided, counted across the file's details.
        public var component: Int?
        public var excluded: Bool
        public var reason: String

        public var json: PayloadValue {
            var object: [String: PayloadValue] = [
                "url": .string(url), "opensApp": .bool(opensApp), "excluded": .bool(excluded),
                "reason": .string(reason),
            ]
            if let appID { object["appID"] = .string(appID) }
            if let component { object["component"] = .int(component) }
            return .object(object)
        }
    }

    public func check(_ url: String) -> Verdict {
        guard let link = try? DeepLink(url), link.isWeb else {
            return Verdict(url: url, opensApp: false, excluded: false, reason: "it is not a valid http(s) URL")
        }
        guard link.scheme == "https" else {
            return Verdict(url: url, opensApp: false, excluded: false, reason: "universal links are https only")
        }
        let parts = withRawParts(of: link)
        // Each part as the characters patterns are matched against, made once per check.
        var prepared: [PreparedKey: [Character]] = [:]
        var counter = 0
        for detail in document.details {
            let appID = detail.appIDs.first
            if let paths = detail.paths, detail.components.isEmpty {
                for pattern in paths {
                    defer { counter += 1 }
                    let (excluded, text) = Self.legacyPattern(pattern)
                    guard let pattern = compiledLegacy[text] ?? nil, pattern.matches(parts.path) else { continue }
                    return Verdict(
                        url: url,
                        opensApp: !excluded,
                        appID: appID,
                        component: counter,
                        excluded: excluded,
                        reason: excluded
                            ? "the legacy path '\(pattern)' excludes it" : "the legacy path '\(pattern)' matches"
                    )
                }
                continue
            }
            for component in detail.components {
                defer { counter += 1 }
                let caseSensitive =
                    component.settings.caseSensitive ?? detail.defaults.caseSensitive ?? document.defaults.caseSensitive
                    ?? true
                let encoded =
                    component.settings.percentEncoded ?? detail.defaults.percentEncoded ?? document.defaults
                    .percentEncoded ?? true
                guard matches(component, parts, caseSensitive: caseSensitive, percentEncoded: encoded, &prepared)
                else { continue }
                let name = component.comment.map { " (\($0))" } ?? ""
                return Verdict(
                    url: url,
                    opensApp: !component.exclude,
                    appID: appID,
                    component: counter,
                    excluded: component.exclude,
                    reason: component.exclude
                        ? "component \(counter)\(name) excludes it" : "component \(counter)\(name) matches"
                )
            }
        }
        return Verdict(url: url, opensApp: false, excluded: false, reason: "no component matches")
    }

    /// A legacy `paths` entry: `NOT ` before a pattern excludes what it matches.
    private static func legacyPattern(_ entry: String) -> (excluded: Bool, text: String) {
        entry.hasPrefix("NOT ") ? (true, String(entry.dropFirst(4))) : (false, entry)
    }

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

    private func matches(
        _ component: AASADocument.Component,
        _ parts: RawParts,
        caseSensitive: Bool,
        percentEncoded: Bool,
        _ prepared: inout [PreparedKey: [Character]]
    ) -> Bool {
        func decode(_ text: String) -> String {
            percentEncoded ? text : (text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text)
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
        guard test(component.path, parts.path), test(component.fragment, parts.fragment) else { return false }
        switch component.query {
        case nil: return true
        case .whole(let pattern): return test(pattern, parts.query)
        case .items(let items):
            return items.allSatisfy { name, pattern in
                parts.items.contains { decode($0.name) == name && test(pattern, $0.value) }
            }
        }
    }
}
