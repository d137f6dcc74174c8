import Waypoint

/// A problem in an apple-app-site-association file: an error (iOS would not read the file, or
/// the part would never work) or a warning (iOS reads it, but probably not as its author meant),
/// with where it is in the file as a JSON path.
///
/// ```swift
/// AASAProblem("'appIDs' must be a list of strings.", at: "applinks.details[0]").description
/// // "error: applinks.details[0]: 'appIDs' must be a list of strings."
/// ```
package struct AASAProblem: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Severity: String, Sendable, Hashable {
        /// iOS would refuse the file, or the part can never work.
        case error
        /// iOS reads the file, but the part is ignored or looks like a mistake.
        case warning
    }

    package let severity: Severity
    /// Where the problem is, as a JSON path (`applinks.details[0].components[2]`); `nil` for the
    /// file as a whole.
    package let path: String?
    package let message: String

    package init(_ message: String, at path: String? = nil, severity: Severity = .error) {
        self.message = message
        self.path = path
        self.severity = severity
    }

    package var description: String {
        "\(severity.rawValue): " + (path.map { "\($0): " } ?? "") + message
    }

    /// The problem as JSON, for `--format json`.
    package var json: PayloadValue {
        var object: [String: PayloadValue] = ["severity": .string(severity.rawValue), "message": .string(message)]
        if let path { object["path"] = .string(path) }
        return .object(object)
    }

    /// The same problem, placed at `path`.
    func placed(at path: String) -> AASAProblem {
        AASAProblem(message, at: path, severity: severity)
    }
}
