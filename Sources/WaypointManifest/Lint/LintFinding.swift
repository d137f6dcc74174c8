/// One thing `waypoint lint` found.
package struct LintFinding: Sendable, Hashable, CustomStringConvertible {
    package enum Severity: String, Sendable, Hashable, Comparable {
        case error, warning

        package static func < (lhs: Self, rhs: Self) -> Bool { lhs == .error && rhs == .warning }
    }

    package var severity: Severity
    /// A stable identifier for the kind of finding: `duplicate-route`, `shadowed-route`, …
    package var code: String
    package var location: SourceLocation?
    package var message: String

    package var description: String {
        (location.map { "\($0): " } ?? "") + "\(severity): \(message) [\(code)]"
    }

    package var json: [String: String] {
        var object = ["severity": severity.rawValue, "code": code, "message": message]
        if let location { object["location"] = location.description }
        return object
    }
}
