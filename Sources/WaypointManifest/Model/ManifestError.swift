/// A manifest that cannot be used, with where and why.
///
/// ```swift
/// error.description // "waypoint.yaml:4:14: 'schemes' must be a list of strings."
/// ```
public struct ManifestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is, when known.
    public let location: SourceLocation?
    /// What is wrong and what was expected, for people.
    public let message: String

    /// An error saying `message` about what stands at `location`.
    public init(_ message: String, at location: SourceLocation?) {
        self.location = location
        self.message = message
    }

    public var description: String {
        location.map { "\($0): \(message)" } ?? message
    }
}
