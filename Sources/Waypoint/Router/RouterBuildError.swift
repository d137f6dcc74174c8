/// Why a route table could not become a ``Router``.
///
/// ```swift
/// var builder = RouterBuilder<Void>()
/// try builder.add("a", "/users/{id}")
/// try builder.add("b", "/users/{name}")
/// try builder.build() // throws: "Routes 'a' and 'b' are duplicates: both have the shape /users/{}."
/// ```
public struct RouterBuildError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem. New kinds may be added without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        enum Base: String, Sendable, Hashable { case duplicateRoute, ambiguousRoutes, duplicateName }
        let base: Base

        /// Two routes with the same shape and the same scheme/host restriction.
        public static let duplicateRoute = Code(base: .duplicateRoute)
        /// Two routes that match the same links at the same precedence and priority.
        public static let ambiguousRoutes = Code(base: .ambiguousRoutes)
        /// Two routes with one name.
        public static let duplicateName = Code(base: .duplicateName)

        public var description: String { base.rawValue }
    }

    /// The kind of problem.
    public let code: Code
    /// The names of the routes involved, in registration order.
    public let routes: [String]
    /// What is wrong and how to fix it, for people.
    public let message: String

    public var description: String { message }
}
