/// Why something that opened the app could not become a link. Carries the original input, so it
/// is reported to observers rather than dropped.
///
/// ```swift
/// intake.shortcut(ShortcutItemSnapshot(type: "com.example.unknown"))
/// // .failure(IntakeError: "No route is mapped for the quick action type 'com.example.unknown'.")
/// ```
public struct IntakeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem. New kinds may be added without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        enum Base: String, Sendable, Hashable {
            case invalidLink, noLink, unmappedShortcut, unmappedActivity, unmappedAction, unknownMessage
            case untrustedOrigin, notMainFrame, missingValue, payloadTooDeep, unsupportedPayload, invalidJSON
            case providerFailed, notForRouting
        }
        let base: Base

        /// Text was found but is not a valid link.
        public static let invalidLink = Code(base: .invalidLink)
        /// The payload carries no link and no rule maps it.
        public static let noLink = Code(base: .noLink)
        /// A quick action type with no route.
        public static let unmappedShortcut = Code(base: .unmappedShortcut)
        /// A user activity type with no route.
        public static let unmappedActivity = Code(base: .unmappedActivity)
        /// A notification action with neither a route nor a handler.
        public static let unmappedAction = Code(base: .unmappedAction)
        /// A web message whose name is not accepted.
        public static let unknownMessage = Code(base: .unknownMessage)
        /// A web message from an origin that is not allowed.
        public static let untrustedOrigin = Code(base: .untrustedOrigin)
        /// A web message from a frame other than the main frame.
        public static let notMainFrame = Code(base: .notMainFrame)
        /// A template names a value the payload does not have.
        public static let missingValue = Code(base: .missingValue)
        /// A payload nested deeper than the limit.
        public static let payloadTooDeep = Code(base: .payloadTooDeep)
        /// A payload value that is not plist- or JSON-like.
        public static let unsupportedPayload = Code(base: .unsupportedPayload)
        /// Payload text that is not JSON.
        public static let invalidJSON = Code(base: .invalidJSON)
        /// A deferred-link provider failed.
        public static let providerFailed = Code(base: .providerFailed)
        /// A push provider's own push (a silent sync, an in-app message trigger, uninstall
        /// tracking): nothing to open, and nothing wrong.
        public static let notForRouting = Code(base: .notForRouting)

        public var description: String { base.rawValue }
    }

    /// The kind of problem.
    public let code: Code
    /// The input that failed, rendered as text (a URL, a payload's JSON, a shortcut type).
    public let input: String
    /// The link error underneath, for ``Code/invalidLink``.
    public let linkError: LinkError?
    /// What is wrong, for people.
    public let message: String

    init(_ code: Code, input: String, linkError: LinkError? = nil, message: String) {
        self.code = code
        self.input = input
        self.linkError = linkError
        self.message = message
    }

    public var description: String { message }
}
