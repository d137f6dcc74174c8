import Foundation
import Waypoint

/// Reads an apple-app-site-association file as iOS does, collecting every problem with its JSON
/// path instead of stopping at the first.
///
/// What it follows, from Apple's documentation: each service (`applinks`, `webcredentials`,
/// `appclips`, `activitycontinuation`) is optional ("Supporting associated domains"); the keys of
/// `applinks.Details` and of its components are listed in "applinks.Details" and
/// "applinks.Details.Components", and keys beyond them are ignored, so they are warnings, not
/// errors; `paths` is ignored when `components` is present; the iOS 9 form keyed `details` by
/// appID and is no longer read.
struct AASAReader {
    private(set) var problems: [AASAProblem] = []

    /// The keys iOS reads, by object.
    private static let applinksKeys: Set<String> = ["apps", "details", "defaults", "substitutionVariables"]
    private static let detailsKeys: Set<String> = ["appID", "appIDs", "components", "paths", "defaults"]
    private static let componentKeys: Set<String> = [
        "/", "?", "#", "exclude", "comment", "caseSensitive", "percentEncoded",
    ]

    mutating func read(_ data: Data) -> AASADocument? {
        if let tooLarge = AASADocument.sizeProblem(bytes: data.count) { problems.append(tooLarge) }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            let reason = PayloadValue.whereJSONBreaks(error)
            let text = String(decoding: data, as: UTF8.self)
            let quotes =
                text.contains(where: { "\u{201C}\u{201D}\u{2018}\u{2019}".contains($0) })
                ? " It holds typographic quotes (“ ” ‘ ’), which JSON does not accept: an editor replaced "
                    + "straight quotes; write \" instead." : ""
            self.error("The file is not valid JSON\(reason)\(quotes) Apple ignores a file it cannot read.")
            return nil
        }
        guard let root = parsed as? [String: Any] else {
            let kind = parsed is [Any] ? "an array" : "not an object"
            error("The file's top level is \(kind); it must be an object such as {\"applinks\": {…}}.")
            return nil
        }
        var document = AASADocument(details: [])
        document.services = AASADocument.Service.allCases.filter { root[$0.rawValue] != nil }
        let known = Set(AASADocument.Service.allCases.map(\.rawValue))
        for key in root.keys.sorted() where !known.contains(key) {
            warning(
                "iOS ignores the key '\(key)'; a file declares "
                    + AASADocument.Service.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ".",
                at: key
            )
        }
        guard !document.services.isEmpty else {
            error(
                "The file declares no service: add 'applinks' for universal links (or 'webcredentials', "
                    + "'appclips', 'activitycontinuation')."
            )
            return nil
        }
        for service in document.services where service != .applinks {
            document.apps[service] = apps(of: service, root[service.rawValue])
        }
        if let applinks = root["applinks"] {
            guard let applinks = applinks as? [String: Any] else {
                error("'applinks' must be an object with 'details'.", at: "applinks")
                return document
            }
            read(applinks, into: &document)
        }
        return document
    }

    /// `webcredentials`, `appclips` and `activitycontinuation`: `{"apps": ["TEAMID.bundle.id"]}`.
    private mutating func apps(of service: AASADocument.Service, _ value: Any?) -> [String] {
        let path = service.rawValue
        guard let object = value as? [String: Any] else {
            error("'\(path)' must be an object: {\"apps\": [\"ABCDE12345.com.example.app\"]}.", at: path)
            return []
        }
        unknownKeys(of: object, known: ["apps"], at: path)
        guard let apps = object["apps"] else {
            error("'\(path)' has no 'apps': list the app IDs it is for.", at: path)
            return []
        }
        guard let list = apps as? [String] else {
            error("'apps' must be a list of app IDs (strings).", at: path + ".apps")
            return []
        }
        if list.isEmpty { warning("'apps' is empty: the service is declared for no app.", at: path + ".apps") }
        for (index, appID) in list.enumerated() { check(appID: appID, at: "\(path).apps[\(index)]") }
        return list
    }

    private mutating func read(_ applinks: [String: Any], into document: inout AASADocument) {
        unknownKeys(of: applinks, known: Self.applinksKeys, at: "applinks")
        if let apps = applinks["apps"] {
            // iOS 9–12 required `"apps": []`; later versions ignore it.
            if (apps as? [Any])?.isEmpty != true {
                warning("'apps' must be an empty list (iOS 12 and earlier); it is ignored.", at: "applinks.apps")
            }
        }
        document.defaults = settings(applinks["defaults"], at: "applinks.defaults")
        if let variables = applinks["substitutionVariables"] {
            if let variables = variables as? [String: [String]] {
                document.substitutionVariables = variables
            } else {
                error("must map names to lists of strings.", at: "applinks.substitutionVariables")
            }
        }
        guard let details = applinks["details"] else {
            error("'applinks' has no 'details': it opens no link.", at: "applinks")
            return
        }
        if let keyed = details as? [String: Any] {
            let appID = keyed.keys.sorted().first ?? "ABCDE12345.com.example.app"
            error(
                "This is the early iOS 9 form, 'details' keyed by app ID, which iOS no longer reads; "
                    + "'details' is a list: \"details\": [{\"appIDs\": [\"\(appID)\"], \"components\": [{\"/\": \"/path/*\"}]}].",
                at: "applinks.details"
            )
            return
        }
        guard let entries = details as? [Any] else {
            error("'details' must be a list of objects.", at: "applinks.details")
            return
        }
        for (index, raw) in entries.enumerated() {
            let path = "applinks.details[\(index)]"
            guard let entry = raw as? [String: Any] else {
                error("must be an object with 'appIDs' and 'components'.", at: path)
                continue
            }
            document.details.append(detailsEntry(entry, at: path, variables: document.substitutionVariables))
        }
    }

    private mutating func detailsEntry(
        _ entry: [String: Any],
        at path: String,
        variables: [String: [String]]
    ) -> AASADocument.Details {
        unknownKeys(of: entry, known: Self.detailsKeys, at: path)
        var appIDs: [String] = []
        if let list = entry["appIDs"] {
            if let list = list as? [String] {
                appIDs = list
                for (index, appID) in list.enumerated() { check(appID: appID, at: "\(path).appIDs[\(index)]") }
            } else {
                error("'appIDs' must be a list of app IDs (strings).", at: path + ".appIDs")
            }
        }
        if let single = entry["appID"] {
            if let single = single as? String {
                check(appID: single, at: path + ".appID")
                if entry["appIDs"] == nil {
                    appIDs = [single]
                } else if !appIDs.contains(single) {
                    warning(
                        "'\(single)' is not in 'appIDs'; iOS 13 and later read 'appIDs' only, so they do not open it.",
                        at: path + ".appID"
                    )
                }
            } else {
                error("'appID' must be a string.", at: path + ".appID")
            }
        }
        if entry["appID"] == nil, entry["appIDs"] == nil {
            error("has neither 'appID' nor 'appIDs'.", at: path)
        } else if appIDs.isEmpty, entry["appIDs"] is [String] {
            error("'appIDs' is empty: the entry names no app.", at: path + ".appIDs")
        }
        var detail = AASADocument.Details(appIDs: appIDs)
        detail.defaults = settings(entry["defaults"], at: path + ".defaults")
        if let paths = entry["paths"] {
            if let paths = paths as? [String] {
                detail.paths = paths
            } else {
                error("'paths' must be a list of strings.", at: path + ".paths")
            }
        }
        if let components = entry["components"] {
            if let components = components as? [Any] {
                detail.components = components.enumerated().compactMap { number, raw in
                    let where_ = "\(path).components[\(number)]"
                    guard let raw = raw as? [String: Any] else {
                        error("must be an object such as {\"/\": \"/path/*\"}.", at: where_)
                        return nil
                    }
                    return component(raw, at: where_, variables: variables)
                }
            } else {
                error("'components' must be a list of objects.", at: path + ".components")
            }
        }
        if detail.components?.isEmpty == true, detail.paths?.isEmpty == false {
            warning(
                "'components' is empty, and iOS 13 and later ignore 'paths' when 'components' is present: "
                    + "this entry opens no link there. Move the paths into 'components' or remove the empty list.",
                at: path + ".components"
            )
        } else if detail.components == nil, detail.paths == nil {
            warning("has neither 'components' nor 'paths': it opens nothing.", at: path)
        }
        return detail
    }

    private mutating func component(
        _ raw: [String: Any],
        at path: String,
        variables: [String: [String]]
    ) -> AASADocument.Component {
        unknownKeys(of: raw, known: Self.componentKeys, at: path)
        var component = AASADocument.Component(path: nil)
        component.path = value(of: "/", in: raw, at: path, mustBe: "a string")
        if let value = raw["?"] {
            if let text = value as? String {
                component.query = .whole(text)
            } else if let items = value as? [String: String] {
                component.query = .items(items)
            } else {
                error("must be a string or an object of strings.", at: path + ".?")
            }
        }
        component.fragment = value(of: "#", in: raw, at: path, mustBe: "a string")
        component.exclude = value(of: "exclude", in: raw, at: path, mustBe: "true or false") ?? false
        if raw["comment"] != nil, !(raw["comment"] is String) {
            warning("'comment' is not a string; iOS ignores it.", at: path + ".comment")
        }
        component.comment = raw["comment"] as? String
        component.settings = settings(raw.filter { $0.key == "caseSensitive" || $0.key == "percentEncoded" }, at: path)
        // `{"path": "/p/*"}` reads as `{}`, and a component without a pattern matches every URL.
        if component.path == nil, component.query == nil, component.fragment == nil,
            raw.keys.contains(where: { !Self.componentKeys.contains($0) })
        {
            error(
                "has none of '/', '?' and '#' (only keys iOS ignores), so it matches every URL: it "
                    + (component.exclude ? "keeps every link out of the app." : "opens the app for every link."),
                at: path
            )
        }
        // Every pattern must compile: an unknown substitution variable is an error.
        for (key, pattern) in component.patterns {
            do {
                _ = try AASAPattern(pattern, variables: variables)
            } catch {
                problems.append(error.placed(at: path + key))
            }
        }
        return component
    }

    /// The value of `key` when it has type `T`; otherwise an error saying what it must be.
    private mutating func value<T>(of key: String, in object: [String: Any], at path: String, mustBe: String) -> T? {
        guard let value = object[key] else { return nil }
        if let typed = value as? T { return typed }
        error("must be \(mustBe).", at: path + "." + key)
        return nil
    }

    private mutating func settings(_ value: Any?, at path: String) -> AASADocument.Settings {
        guard let value else { return AASADocument.Settings() }
        guard let object = value as? [String: Any] else {
            error("must be an object.", at: path)
            return AASADocument.Settings()
        }
        unknownKeys(of: object, known: ["caseSensitive", "percentEncoded"], at: path)
        var settings = AASADocument.Settings()
        for key in ["caseSensitive", "percentEncoded"] where object[key] != nil {
            guard let flag = object[key] as? Bool else {
                error("must be true or false.", at: path + "." + key)
                continue
            }
            if key == "caseSensitive" { settings.caseSensitive = flag } else { settings.percentEncoded = flag }
        }
        return settings
    }

    private mutating func check(appID: String, at path: String) {
        problems += AppID.problems(appID).map { $0.placed(at: path) }
    }

    private mutating func unknownKeys(of object: [String: Any], known: Set<String>, at path: String) {
        // A slip of a key iOS reads (`excluded`, `appIDS`, `path` for `/`) is an error: what it meant
        // does not apply. One-character keys are no one's slip, and a comment has no effect to lose.
        let slippable = known.filter { $0.count > 2 && $0 != "comment" }.sorted()
        let otherNames = ["path": "/", "paths": "/", "query": "?", "fragment": "#"].filter { known.contains($0.value) }
        for key in object.keys.sorted() where !known.contains(key) {
            if let meant = Spelling.meant(key, in: slippable, otherNames: otherNames) {
                error(
                    "iOS ignores the key '\(key)': did you mean '\(meant)'? As written, what it says does not apply.",
                    at: path
                )
                continue
            }
            warning(
                "iOS ignores the key '\(key)'; it reads " + known.sorted().map { "'\($0)'" }.joined(separator: ", ")
                    + " here.",
                at: path
            )
        }
    }

    private mutating func error(_ message: String, at path: String? = nil) {
        problems.append(AASAProblem(message, at: path))
    }

    private mutating func warning(_ message: String, at path: String) {
        problems.append(AASAProblem(message, at: path, severity: .warning))
    }
}

extension AASADocument.Component {
    /// Every pattern the component holds, with the JSON path of each below the component.
    var patterns: [(key: String, pattern: String)] {
        var patterns: [(String, String)] = []
        if let path { patterns.append(("./", path)) }
        switch query {
        case .whole(let text): patterns.append((".?", text))
        case .items(let items): patterns += items.sorted { $0.key < $1.key }.map { (".?.\($0.key)", $0.value) }
        case nil: break
        }
        if let fragment { patterns.append((".#", fragment)) }
        return patterns
    }
}
