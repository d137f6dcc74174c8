/// One thing `waypoint lint` found.
public struct LintFinding: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Comparable {
        case error, warning

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs == .error && rhs == .warning }
    }

    public var severity: Severity
    /// A stable identifier for the kind of finding: `duplicate-route`, `shadowed-route`, …
    public var code: String
    public var location: SourceLocation?
    public var message: String

    public var description: String {
        (location.map { "\($0): " } ?? "") + "\(severity): \(message) [\(code)]"
    }

    public var json: [String: String] {
        var object = ["severity": severity.rawValue, "code": code, "message": message]
        if let location { object["location"] = location.description }
        return object
    }
}
