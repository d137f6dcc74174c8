// `indirect`: the values of each case live in one box, so code that copies or switches over a resolution
// moves one word, whatever the payload's layout (10 KB less machine code for a device; Scripts/measure-core.sh).
/// What happened to one link: exactly one of five distinct outcomes.
///
/// Only `.matched` means a route took the link; forbidden and not-found links are never reported
/// as handled, and each outcome can be sent to its own handler with a `switch`.
///
/// ```swift
/// switch resolver.resolve(text) {
/// case .matched(let match): show(match.value)
/// case .notFound(let link): showNotFound(link)
/// case .forbidden(_, let reason): log(reason)
/// case .passThrough(let link): openOutside(link)
/// case .invalid(let error): log(error.message)
/// }
/// ```
public indirect enum Resolution<Value: Sendable>: Sendable {
    /// A route matched.
    case matched(RouteMatch<Value>)
    /// The link is the app's, but no route matches it.
    case notFound(DeepLink)
    /// Policy refused the link, with the reason.
    case forbidden(DeepLink, reason: String)
    /// The link is not the app's; the system should open it.
    case passThrough(DeepLink)
    /// The input could not become a link.
    case invalid(WaypointError)

    /// The match, for `.matched`.
    public var match: RouteMatch<Value>? {
        if case .matched(let match) = self { return match }
        return nil
    }

    /// The link, for every outcome but `.invalid`.
    public var link: DeepLink? {
        switch self {
        case .matched(let match): match.link
        case .notFound(let link), .forbidden(let link, _), .passThrough(let link): link
        case .invalid: nil
        }
    }

    /// Which of the five outcomes this is, without its values.
    ///
    /// ```swift
    /// resolver.resolve("myapp://messages/1").status  // .matched
    /// resolver.resolve("evil://x").status            // .forbidden
    /// ```
    public var status: ResolutionStatus {
        switch self {
        case .matched: .matched
        case .notFound: .notFound
        case .forbidden: .forbidden
        case .passThrough: .passThrough
        case .invalid: .invalid
        }
    }
}

/// What resolving an input gave, by name: the five outcomes of a ``Resolution``, and
/// `notForRouting` for a push provider's own push, which intake recognizes before any link is read
/// (`DispatchOutcome.notForRouting(message:)`). The raw values are what `waypoint resolve` prints
/// as `status`; each but `matched` is the name of the `DispatchOutcome` the dispatcher reports.
///
/// ```swift
/// resolver.resolve("myapp://nowhere").status.rawValue   // "notFound"
/// ```
public enum ResolutionStatus: String, Sendable, Hashable, CaseIterable {
    /// A route matched.
    case matched
    /// The link is the app's, but no route matches it.
    case notFound
    /// Policy, or the matching route's `sources`, refused the link.
    case forbidden
    /// The link is not the app's.
    case passThrough
    /// The input could not become a link.
    case invalid
    /// A push provider's own push, or a button of its that opens nothing: `Waypoint`'s intake
    /// recognizes it and `waypoint resolve` prints it. A ``Resolution`` never has this status, so
    /// code that only resolves links never sees it.
    case notForRouting
}
