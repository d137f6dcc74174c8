// `indirect`: the values of each case live in one box, so code that copies or switches over a result
// moves one word, however large the payload (2 KB less machine code for a device; Scripts/measure-core.sh).
/// What intake made of one thing that opened the app.
///
/// ```swift
/// intake.url("myapp://books/42").link?.string     // "myapp://books/42"
/// intake.text("no link here").error?.code        // .invalidLink
/// ```
public indirect enum IntakeResult: Sendable {
    /// A link to dispatch, with the key that identifies its delivery (for deduplication).
    case link(DeepLink, identity: String)
    /// A notification action that runs the app's action handler instead of a route.
    case action(NotificationActionInvocation)
    /// A notification the user dismissed.
    case dismissed(NotificationActionInvocation)
    /// Nothing usable: the error carries the original input.
    case failure(WaypointError)

    /// The link, for `.link`.
    public var link: DeepLink? {
        if case .link(let link, _) = self { return link }
        return nil
    }

    /// The error, for `.failure`.
    public var error: WaypointError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// A notification action as the app's action handler sees it.
///
/// ```swift
/// LinkFallbacks(actions: ["like": { invocation in await like(invocation.payload["postId"]?.text) }])
/// ```
public struct NotificationActionInvocation: Sendable, Hashable {
    /// The action's identifier (``NotificationAction/id``).
    public var actionIdentifier: String
    /// The notification's category (`aps.category`).
    public var categoryIdentifier: String
    /// The notification request's identifier.
    public var requestIdentifier: String
    /// The notification's payload (`content.userInfo`).
    public var payload: PayloadValue
    /// The provider whose payload declared this button when it sent the push (`"Klaviyo"`), for
    /// a button the app's categories do not have; `nil` for an action of the app's own.
    public var providerButton: String? = nil
}
