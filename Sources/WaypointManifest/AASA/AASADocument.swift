import Foundation
import Waypoint

/// An apple-app-site-association file's universal-link part, in either form: iOS 13+ `components`
/// or the legacy `paths` with `NOT `.
public struct AASADocument: Sendable {
    /// `caseSensitive` and `percentEncoded`, at the file, details or component level.
    public struct Settings: Sendable, Hashable {
        public var caseSensitive: Bool?
        public var percentEncoded: Bool?
        public init(caseSensitive: Bool? = nil, percentEncoded: Bool? = nil) {
            self.caseSensitive = caseSensitive
            self.percentEncoded = percentEncoded
        }
    }

    public enum QueryPattern: Sendable, Hashable {
        /// Matched against the whole query.
        case whole(String)
        /// Each named item must be present and its value must match.
        case items([String: String])
    }

    public struct Component: Sendable, Hashable {
        public var path: String?
        public var query: QueryPattern?
        public var fragment: String?
        public var exclude = false
        public var settings = Settings()
        public var comment: String?

        public init(
            path: String?,
            query: QueryPattern? = nil,
            fragment: String? = nil,
            exclude: Bool = false,
            comment: String? = nil
        ) {
            self.path = path
            self.query = query
            self.fragment = fragment
            self.exclude = exclude
            self.comment = comment
        }
    }

    public struct Details: Sendable, Hashable {
        public var appIDs: [String]
        public var components: [Component] = []
        /// The legacy form, when the file uses it.
        public var paths: [String]?
        public var defaults = Settings()

        public init(appIDs: [String], components: [Component] = [], paths: [String]? = nil) {
            self.appIDs = appIDs
            self.components = components
            self.paths = paths
        }
    }

    public var details: [Details]
    public var defaults = Settings()
    public var substitutionVariables: [String: [String]] = [:]

    /// Apple fetches at most 128 KB.
    public static let sizeLimit = 128 * 1024

    public init(details: [Details], defaults: Settings = Settings(), substitutionVariables: [String: [String]] = [:]) {
        self.details = details
        self.defaults = defaults
        self.substitutionVariables = substitutionVariables
    }

    /// Reads a file, collecting every problem instead of stopping at the first.
    ///
    /// - Returns: the document (`nil` when nothing usable was found) and the problems.
    public static func parse(_ data: Data) -> (document: AASADocument?, problems: [AASAProblem]) {
        var problems: [AASAProblem] = []
        if data.count > sizeLimit {
            problems.append(AASAProblem("The file is \(data.count) bytes; Apple reads at most \(sizeLimit) (128 KB)."))
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            // Foundation says where the text breaks ("… around line 1, column 14."): worth passing on.
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            let reason = detail.map { ": " + ($0.hasSuffix(".") ? $0 : $0 + ".") } ?? "."
            return (
                nil,
                problems + [AASAProblem("The file is not valid JSON\(reason) Apple ignores a file it cannot read.")]
            )
        }
        guard let root = parsed as? [String: Any] else {
            let kind = parsed is [Any] ? "an array" : "not an object"
            return (
                nil, problems + [AASAProblem("The file's top level is \(kind); it must be an object with 'applinks'.")]
            )
        }
        guard let applinks = root["applinks"] as? [String: Any] else {
            return (nil, problems + [AASAProblem("The file has no 'applinks' object.")])
        }
        var document = AASADocument(details: [])
        document.defaults = settings(applinks["defaults"], at: "applinks.defaults", &problems)
        if let variables = applinks["substitutionVariables"] {
            if let variables = variables as? [String: [String]] {
                document.substitutionVariables = variables
            } else {
                problems.append(AASAProblem("'applinks.substitutionVariables' must map names to lists of strings."))
            }
        }
        guard let details = applinks["details"] as? [[String: Any]] else {
            return (nil, problems + [AASAProblem("'applinks.details' must be a list of objects.")])
        }
        for (index, entry) in details.enumerated() {
            let where_ = "applinks.details[\(index)]"
            var appIDs: [String] = []
            if let appID = entry["appID"] as? String { appIDs.append(appID) }
            if let list = entry["appIDs"] as? [String] { appIDs += list }
            if appIDs.isEmpty { problems.append(AASAProblem("'\(where_)' has neither 'appID' nor 'appIDs'.")) }
            var detail = Details(appIDs: appIDs)
            detail.defaults = settings(entry["defaults"], at: where_ + ".defaults", &problems)
            if let paths = entry["paths"] {
                if let paths = paths as? [String] {
                    detail.paths = paths
                } else {
                    problems.append(AASAProblem("'\(where_).paths' must be a list of strings."))
                }
            }
            if let components = entry["components"] {
                guard let components = components as? [[String: Any]] else {
                    problems.append(AASAProblem("'\(where_).components' must be a list of objects."))
                    continue
                }
                for (number, raw) in components.enumerated() {
                    detail.components.append(component(raw, at: "\(where_).components[\(number)]", &problems))
                }
            }
            if detail.paths == nil && entry["components"] == nil {
                problems.append(AASAProblem("'\(where_)' has neither 'components' nor 'paths': it opens nothing."))
            }
            document.details.append(detail)
        }
        // Every pattern must compile: unknown substitution variables are errors.
        for detail in document.details {
            for component in detail.components {
                for pattern in [component.path, component.fragment].compactMap({ $0 }) + component.queryPatterns {
                    do {
                        _ = try AASAPattern(pattern, variables: document.substitutionVariables)
                    } catch {
                        problems.append(error)
                    }
                }
            }
        }
        return (document, problems)
    }

    private static func settings(_ value: Any?, at path: String, _ problems: inout [AASAProblem]) -> Settings {
        guard let value else { return Settings() }
        guard let object = value as? [String: Any] else {
            problems.append(AASAProblem("'\(path)' must be an object."))
            return Settings()
        }
        var settings = Settings()
        for key in ["caseSensitive", "percentEncoded"] where object[key] != nil {
            guard let flag = object[key] as? Bool else {
                problems.append(AASAProblem("'\(path).\(key)' must be true or false."))
                continue
            }
            if key == "caseSensitive" { settings.caseSensitive = flag } else { settings.percentEncoded = flag }
        }
        return settings
    }

    private static func component(_ raw: [String: Any], at path: String, _ problems: inout [AASAProblem]) -> Component {
        var component = Component(path: nil)
        let known: Set<String> = ["/", "?", "#", "exclude", "comment", "caseSensitive", "percentEncoded"]
        for key in raw.keys.sorted() where !known.contains(key) {
            problems.append(AASAProblem("'\(path)' has the unknown key '\(key)'."))
        }
        if let value = raw["/"] {
            if let text = value as? String {
                component.path = text
            } else {
                problems.append(AASAProblem("'\(path)./' must be a string."))
            }
        }
        if let value = raw["?"] {
            if let text = value as? String {
                component.query = .whole(text)
            } else if let items = value as? [String: String] {
                component.query = .items(items)
            } else {
                problems.append(AASAProblem("'\(path).?' must be a string or an object of strings."))
            }
        }
        if let value = raw["#"] {
            if let text = value as? String {
                component.fragment = text
            } else {
                problems.append(AASAProblem("'\(path).#' must be a string."))
            }
        }
        if let value = raw["exclude"] {
            if let flag = value as? Bool {
                component.exclude = flag
            } else {
                problems.append(AASAProblem("'\(path).exclude' must be true or false."))
            }
        }
        component.comment = raw["comment"] as? String
        component.settings = settings(
            raw.filter { $0.key == "caseSensitive" || $0.key == "percentEncoded" },
            at: path,
            &problems
        )
        return component
    }

    /// The document as JSON, in the iOS 13+ form.
    public var json: PayloadValue {
        func settingsJSON(_ settings: Settings) -> [String: PayloadValue] {
            var object: [String: PayloadValue] = [:]
            if let value = settings.caseSensitive { object["caseSensitive"] = .bool(value) }
            if let value = settings.percentEncoded { object["percentEncoded"] = .bool(value) }
            return object
        }
        var applinks: [String: PayloadValue] = [:]
        applinks["details"] = .array(
            details.map { detail in
                var object: [String: PayloadValue] = ["appIDs": .array(detail.appIDs.map(PayloadValue.string))]
                object["components"] = .array(
                    detail.components.map { component in
                        var entry = settingsJSON(component.settings)
                        if let path = component.path { entry["/"] = .string(path) }
                        switch component.query {
                        case .whole(let text): entry["?"] = .string(text)
                        case .items(let items): entry["?"] = .object(items.mapValues(PayloadValue.string))
                        case nil: break
                        }
                        if let fragment = component.fragment { entry["#"] = .string(fragment) }
                        if component.exclude { entry["exclude"] = .bool(true) }
                        if let comment = component.comment { entry["comment"] = .string(comment) }
                        return .object(entry)
                    }
                )
                if let paths = detail.paths { object["paths"] = .array(paths.map(PayloadValue.string)) }
                let defaults = settingsJSON(detail.defaults)
                if !defaults.isEmpty { object["defaults"] = .object(defaults) }
                return .object(object)
            }
        )
        let defaults = settingsJSON(self.defaults)
        if !defaults.isEmpty { applinks["defaults"] = .object(defaults) }
        if !substitutionVariables.isEmpty {
            applinks["substitutionVariables"] = .object(
                substitutionVariables.mapValues { .array($0.map(PayloadValue.string)) }
            )
        }
        return .object(["applinks": .object(applinks)])
    }
}

extension AASADocument.Component {
    var queryPatterns: [String] {
        switch query {
        case .whole(let text): [text]
        case .items(let items): Array(items.values)
        case nil: []
        }
    }
}
