/// What a route handler did with a match.
///
/// ```swift
/// LinkRoute<Screen>("messages.detail", "/messages/{id:int}") { match in
///     guard let id = match.parameters.int("id") else { return .declined }
///     return .handled(.pushOverRoot(.chat(id), tab: "inbox"))
/// }
/// ```
public enum HandlerResult<Destination: Hashable & Sendable>: Sendable {
    /// The link is handled: show this.
    case handled(NavigationPlan<Destination>)
    /// Not for this handler: the next candidate route in precedence order is tried.
    case declined
    /// The handler could not do it.
    case failed(any Error)
    /// This link is really that one (a short link, a legacy path): the dispatcher runs the link
    /// given in its place, through policy, routing and barriers again, with the original link's source, so a
    /// redirect never gains what the original source could not reach. Only the app's own
    /// destinations are followed (``LinkPolicy/isOwnDestination(_:)``), so returning a `next=`
    /// parameter as it came is safe: another site ends as ``DispatchOutcome/redirectFailed(reason:)``.
    /// A relative link (`/books/42`) is the app's own. Chains are bounded by
    /// ``DispatcherConfiguration/maximumRedirects``; a loop ends as ``DispatchOutcome/redirectFailed(reason:)``.
    ///
    /// ```swift
    /// { match in .redirect(to: "/books/\(legacyIDs[match.parameters.string("code") ?? ""] ?? 0)") }
    /// ```
    case redirect(to: String)
}
