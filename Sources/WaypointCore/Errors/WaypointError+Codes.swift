extension WaypointError.Code {
    /// Every kind of problem, one name each: a name used by two steps (a host, a percent-escape)
    /// means the same mistake in both.
    enum Name: String, Sendable, Hashable {
        // A link's text.
        case empty, missingScheme, invalidScheme, invalidCharacter, invalidPercentEscape, invalidUTF8, nulByte
        case tooLong, tooManySegments, tooManyQueryItems, invalidHost, invalidPort
        // What opened the app.
        case invalidLink, noLink, unmappedShortcut, unmappedActivity, unmappedAction, unknownMessage
        case untrustedOrigin, notMainFrame, missingValue, payloadTooDeep, unsupportedPayload, invalidJSON
        case providerFailed, notForRouting
        // A route pattern.
        case invalidStart, unbalancedParenthesis, emptyGroup, tooManyExpansions, catchAllNotLast
        case invalidParameter, duplicateParameter, unknownType, duplicateExpansion
        // A route table, a link built from a route, the app's setup.
        case duplicateRoute, ambiguousRoutes, duplicateName, unknownRoute, missingParameter, originMismatch
        case invalidPattern, invalidRouteTable, unknownBarrier, duplicateBarrier, unknownDestination, unknownAction
        case invalidRedirect, invalidConfiguration, shadowedRoute
        // A parameter used as a file name, a pending-link store.
        case unsafeName, storeFailed, invalidKey
    }

    // MARK: A link's text

    /// The input was empty or only white space.
    public static let empty = Self(name: .empty)
    /// A link with neither a scheme nor a leading `/`; a built link whose route, style and
    /// configuration name no scheme.
    public static let missingScheme = Self(name: .missingScheme)
    /// The scheme has a character other than letters, digits, `+`, `-`, `.`.
    public static let invalidScheme = Self(name: .invalidScheme)
    /// A character that cannot stand unencoded in a link (space, backslash, control character…), or
    /// in a pattern (`?`, `#`, a space, a backslash: patterns match paths only).
    public static let invalidCharacter = Self(name: .invalidCharacter)
    /// A `%` not followed by two hexadecimal digits, in a link or a pattern's literal.
    public static let invalidPercentEscape = Self(name: .invalidPercentEscape)
    /// Percent-escapes that do not decode to valid UTF-8.
    public static let invalidUTF8 = Self(name: .invalidUTF8)
    /// A `%00` escape: a NUL byte has no place in a link.
    public static let nulByte = Self(name: .nulByte)
    /// Longer than ``LinkLimits/maxLength``.
    public static let tooLong = Self(name: .tooLong)
    /// More path segments than ``LinkLimits/maxSegments``.
    public static let tooManySegments = Self(name: .tooManySegments)
    /// More query items than ``LinkLimits/maxQueryItems``.
    public static let tooManyQueryItems = Self(name: .tooManyQueryItems)
    /// An `http(s)` link or pattern without a host, or with one that is not a domain name or IP literal.
    public static let invalidHost = Self(name: .invalidHost)
    /// An `http(s)` link whose port is not digits up to 65535.
    public static let invalidPort = Self(name: .invalidPort)

    // MARK: What opened the app

    /// Text was found but is not a valid link; ``WaypointError/underlyingCode`` says why.
    public static let invalidLink = Self(name: .invalidLink)
    /// The payload carries no link and no rule maps it.
    public static let noLink = Self(name: .noLink)
    /// A quick action type with no route.
    public static let unmappedShortcut = Self(name: .unmappedShortcut)
    /// A user activity type with no route.
    public static let unmappedActivity = Self(name: .unmappedActivity)
    /// A notification action with neither a route nor a handler.
    public static let unmappedAction = Self(name: .unmappedAction)
    /// A web message whose name is not accepted.
    public static let unknownMessage = Self(name: .unknownMessage)
    /// A web message from an origin that is not allowed.
    public static let untrustedOrigin = Self(name: .untrustedOrigin)
    /// A web message from a frame other than the main frame.
    public static let notMainFrame = Self(name: .notMainFrame)
    /// A template names a value the payload does not have.
    public static let missingValue = Self(name: .missingValue)
    /// A payload nested deeper than the limit.
    public static let payloadTooDeep = Self(name: .payloadTooDeep)
    /// A payload value that is not plist- or JSON-like.
    public static let unsupportedPayload = Self(name: .unsupportedPayload)
    /// Payload text that is not JSON.
    public static let invalidJSON = Self(name: .invalidJSON)
    /// A link provider failed: a deferred-link provider, or the link service asked for the deep
    /// link behind a short link.
    public static let providerFailed = Self(name: .providerFailed)
    /// A push provider's own push (a silent sync, an in-app message trigger, uninstall tracking):
    /// nothing to open, and nothing wrong.
    public static let notForRouting = Self(name: .notForRouting)

    // MARK: A route pattern

    /// The pattern starts with neither `/` nor a scheme such as `myapp://`.
    public static let invalidStart = Self(name: .invalidStart)
    /// A `(` without its `)` or the other way round.
    public static let unbalancedParenthesis = Self(name: .unbalancedParenthesis)
    /// `()` with nothing inside.
    public static let emptyGroup = Self(name: .emptyGroup)
    /// Optional groups that expand to more than 256 shapes.
    public static let tooManyExpansions = Self(name: .tooManyExpansions)
    /// `**` anywhere but last.
    public static let catchAllNotLast = Self(name: .catchAllNotLast)
    /// A parameter that is malformed or shares its segment with text; a value given to build a link
    /// that does not have its parameter's type, or is empty.
    public static let invalidParameter = Self(name: .invalidParameter)
    /// One parameter name used twice.
    public static let duplicateParameter = Self(name: .duplicateParameter)
    /// A parameter type other than `int`, `double`, `bool`, `uuid`, `string`.
    public static let unknownType = Self(name: .unknownType)
    /// Optional groups that expand to the same shape twice.
    public static let duplicateExpansion = Self(name: .duplicateExpansion)

    // MARK: A route table, a built link, the app's setup

    /// Two routes with the same shape and the same scheme/host restriction.
    public static let duplicateRoute = Self(name: .duplicateRoute)
    /// Two routes that match the same links at the same precedence and priority.
    public static let ambiguousRoutes = Self(name: .ambiguousRoutes)
    /// Two routes with one name.
    public static let duplicateName = Self(name: .duplicateName)
    /// No route has that name.
    public static let unknownRoute = Self(name: .unknownRoute)
    /// A parameter (or a `*` value) a route's pattern needs was not given, or a route has no parameter
    /// of that name.
    public static let missingParameter = Self(name: .missingParameter)
    /// The style asks for a scheme or host the route does not accept.
    public static let originMismatch = Self(name: .originMismatch)
    /// A built link would open another route, or the route in another shape: `/users/{name}` with
    /// `new` builds `myapp://users/new`, which the route `/users/new` takes.
    public static let shadowedRoute = Self(name: .shadowedRoute)
    /// A route's pattern does not parse; ``WaypointError/underlyingCode`` says why.
    public static let invalidPattern = Self(name: .invalidPattern)
    /// Two routes share a name, duplicate or are ambiguous; ``WaypointError/underlyingCode`` says which.
    public static let invalidRouteTable = Self(name: .invalidRouteTable)
    /// A route names a barrier the app did not supply.
    public static let unknownBarrier = Self(name: .unknownBarrier)
    /// Two supplied barriers share a name.
    public static let duplicateBarrier = Self(name: .duplicateBarrier)
    /// A manifest route leads to a destination the app did not map, or the app maps one no route uses.
    public static let unknownDestination = Self(name: .unknownDestination)
    /// A manifest's notification action runs a handler the app did not give, or the app gives one for
    /// an action the manifest does not declare.
    public static let unknownAction = Self(name: .unknownAction)

    /// A redirect route's target (`redirectingTo:`, a manifest's `redirect:`) cannot work: its
    /// braces do not pair, it uses a parameter its pattern does not have in every link, it is not
    /// the app's own, or it leads to no route that shows a screen within `maximumRedirects`.
    public static let invalidRedirect = Self(name: .invalidRedirect)
    /// A setup value that cannot work: a dispatcher's timeout or wait not more than 0 seconds and
    /// finite, a queue that keeps no link, a negative redirect count, a link template whose braces
    /// do not pair.
    public static let invalidConfiguration = Self(name: .invalidConfiguration)

    // MARK: A parameter as a file name, a store

    /// A parameter refused as a file or resource name (`..`, `/`, control or invisible characters).
    public static let unsafeName = Self(name: .unsafeName)
    /// A pending-link store that could not be read or written.
    public static let storeFailed = Self(name: .storeFailed)
    /// A pending-link key shorter than 32 bytes.
    public static let invalidKey = Self(name: .invalidKey)
}
