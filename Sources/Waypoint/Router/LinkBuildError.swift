/// Why a route could not build a link from the values given.
///
/// ```swift
/// try router.link(for: "messages.detail", [:])
/// // throws: "Route 'messages.detail' ('/messages/{id:int}') needs a value for 'id'."
/// ```
public struct LinkBuildError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem. New kinds may be added without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        enum Base: String, Sendable, Hashable {
            case unknownRoute, missingParameter, invalidParameter, missingScheme, originMismatch, invalidLink
        }
        let base: Base

        /// No route has that name.
        public static let unknownRoute = Code(base: .unknownRoute)
        /// A parameter (or a `*` value) the pattern needs was not given.
        public static let missingParameter = Code(base: .missingParameter)
        /// A value does not have its parameter's type, or is empty.
        public static let invalidParameter = Code(base: .invalidParameter)
        /// Neither the pattern, the style nor the configuration names a scheme.
        public static let missingScheme = Code(base: .missingScheme)
        /// The style asks for a scheme or host the route does not accept.
        public static let originMismatch = Code(base: .originMismatch)
        /// The built text is not a valid link (for example, longer than the limits).
        public static let invalidLink = Code(base: .invalidLink)

        public var description: String { base.rawValue }
    }

    /// The kind of problem.
    public let code: Code
    /// The route's name.
    public let route: String
    /// What is wrong, for people.
    public let message: String

    public var description: String { message }
}
