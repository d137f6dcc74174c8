/// A mistake in how the app set up its links, found when the dispatcher is built, never when a
/// link runs: a bad pattern, a duplicate or ambiguous route, a barrier a route names but the app
/// did not supply.
///
/// ```swift
/// try LinkDispatcher<Screen>(routes: [LinkRoute("pay", "/pay", barriers: ["logn"]) { _ in .push(.pay) }],
///                            policy: policy, barriers: [login])
/// // LinkSetupError: "The route 'pay' names the barrier 'logn', which is not supplied (supplied: login)."
/// ```
public struct LinkSetupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of mistake.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        enum Base: String, Sendable, Hashable {
            case invalidPattern, invalidRouteTable, unknownBarrier, duplicateBarrier, unknownDestination
            case unknownAction
        }
        let base: Base
        public var description: String { base.rawValue }
        /// A route's pattern does not parse.
        public static let invalidPattern = Code(base: .invalidPattern)
        /// Two routes share a name, duplicate or are ambiguous.
        public static let invalidRouteTable = Code(base: .invalidRouteTable)
        /// A route names a barrier the app did not supply.
        public static let unknownBarrier = Code(base: .unknownBarrier)
        /// Two supplied barriers share a name.
        public static let duplicateBarrier = Code(base: .duplicateBarrier)
        /// A manifest route leads to a destination the app did not map, or the app maps one no route uses.
        public static let unknownDestination = Code(base: .unknownDestination)
        /// A manifest's notification action runs a handler the app did not give, or the app gives
        /// one for an action the manifest does not declare.
        public static let unknownAction = Code(base: .unknownAction)
    }

    public let code: Code
    /// What is wrong and where, for people.
    public let message: String

    package init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
