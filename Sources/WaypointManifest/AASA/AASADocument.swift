import Foundation
import Waypoint

/// An apple-app-site-association file: the services it declares, and its universal-link part in
/// either form, iOS 13+ `components` or the legacy `paths` with `NOT `.
package struct AASADocument: Sendable {
    /// The services a file can declare. Apple: "Update the JSON code in the file for the services
    /// you support on the domain" (Supporting associated domains): each is optional.
    package enum Service: String, Sendable, Hashable, CaseIterable {
        /// Universal links: `applinks.details`.
        case applinks
        /// Password AutoFill and shared web credentials: `webcredentials.apps`.
        case webcredentials
        /// App Clips: `appclips.apps`.
        case appclips
        /// Handoff: `activitycontinuation.apps`.
        case activitycontinuation
    }

    /// `caseSensitive` and `percentEncoded`, at the file, details or component level.
    package struct Settings: Sendable, Hashable {
        package var caseSensitive: Bool?
        package var percentEncoded: Bool?
        package init(caseSensitive: Bool? = nil, percentEncoded: Bool? = nil) {
            self.caseSensitive = caseSensitive
            self.percentEncoded = percentEncoded
        }
    }

    package enum QueryPattern: Sendable, Hashable {
        /// Matched against the whole query.
        case whole(String)
        /// Each named item must be present and its value must match.
        case items([String: String])
    }

    /// One entry of `components`. A missing `/`, `?` or `#` matches everything (Apple's default `*`).
    package struct Component: Sendable, Hashable {
        package var path: String?
        package var query: QueryPattern?
        package var fragment: String?
        package var exclude = false
        package var settings = Settings()
        package var comment: String?

        package init(
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

    package struct Details: Sendable, Hashable {
        package var appIDs: [String]
        /// `nil` when the entry has no `components` key. When it has one, even an empty list, iOS 13
        /// and later ignore `paths` (Apple: "the system ignores the paths key" when components is
        /// present; applinks.Details).
        package var components: [Component]?
        /// The legacy form, which iOS 12 and earlier read.
        package var paths: [String]?
        package var defaults = Settings()

        package init(appIDs: [String], components: [Component]? = nil, paths: [String]? = nil) {
            self.appIDs = appIDs
            self.components = components
            self.paths = paths
        }
    }

    /// The services the file declares, in the order of ``Service``.
    package var services: [Service] = [.applinks]
    /// The apps named by `webcredentials`, `appclips` and `activitycontinuation`.
    package var apps: [Service: [String]] = [:]
    /// `applinks.details`; empty when the file declares no `applinks`.
    package var details: [Details]
    package var defaults = Settings()
    package var substitutionVariables: [String: [String]] = [:]

    /// Apple fetches at most 128 KB.
    package static let sizeLimit = 128 * 1024

    /// The one size rule, for a file read and a file generated: `nil` within Apple's limit.
    package static func sizeProblem(bytes: Int) -> AASAProblem? {
        bytes > sizeLimit ? AASAProblem("The file is \(bytes) bytes; Apple reads at most \(sizeLimit) (128 KB).") : nil
    }

    package init(details: [Details], defaults: Settings = Settings(), substitutionVariables: [String: [String]] = [:]) {
        self.details = details
        self.defaults = defaults
        self.substitutionVariables = substitutionVariables
    }

    /// Reads a file, collecting every problem instead of stopping at the first: errors (iOS would
    /// not read it, or a part can never work) and warnings (iOS ignores a part), each with its JSON
    /// path.
    ///
    /// - Returns: the document (`nil` when nothing usable was found) and the problems.
    package static func parse(_ data: Data) -> (document: AASADocument?, problems: [AASAProblem]) {
        var reader = AASAReader()
        let document = reader.read(data)
        return (document, reader.problems)
    }

    /// The document as JSON, in the iOS 13+ form.
    package var json: PayloadValue {
        var applinks: [String: PayloadValue] = [:]
        applinks["details"] = .array(
            details.map { detail in
                var object: [String: PayloadValue] = ["appIDs": .array(detail.appIDs.map(PayloadValue.string))]
                if let components = detail.components { object["components"] = .array(components.map(\.json)) }
                if let paths = detail.paths { object["paths"] = .array(paths.map(PayloadValue.string)) }
                let defaults = detail.defaults.json
                if !defaults.isEmpty { object["defaults"] = .object(defaults) }
                return .object(object)
            }
        )
        let defaults = self.defaults.json
        if !defaults.isEmpty { applinks["defaults"] = .object(defaults) }
        if !substitutionVariables.isEmpty {
            applinks["substitutionVariables"] = .object(
                substitutionVariables.mapValues { .array($0.map(PayloadValue.string)) }
            )
        }
        var root: [String: PayloadValue] = [:]
        for service in services {
            root[service.rawValue] =
                service == .applinks
                ? .object(applinks) : .object(["apps": .array((apps[service] ?? []).map(PayloadValue.string))])
        }
        return .object(root)
    }
}

extension AASADocument.Settings {
    var json: [String: PayloadValue] {
        var object: [String: PayloadValue] = [:]
        if let value = caseSensitive { object["caseSensitive"] = .bool(value) }
        if let value = percentEncoded { object["percentEncoded"] = .bool(value) }
        return object
    }
}

extension AASADocument.Component {
    /// The component as the file writes it: verdicts quote it, the generator writes it.
    package var json: PayloadValue {
        var entry = settings.json
        if let path { entry["/"] = .string(path) }
        switch query {
        case .whole(let text): entry["?"] = .string(text)
        case .items(let items): entry["?"] = .object(items.mapValues(PayloadValue.string))
        case nil: break
        }
        if let fragment { entry["#"] = .string(fragment) }
        if exclude { entry["exclude"] = .bool(true) }
        if let comment { entry["comment"] = .string(comment) }
        return .object(entry)
    }
}
