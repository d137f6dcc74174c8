import Foundation
import Waypoint

/// A dispatcher that opens the link service's short links: a link that looks like a short link
/// of the service (`https://links.example.com/spring`) and that no route of the app matches is
/// first asked of the service (``LinkServiceClient/resolve(shortLink:)``), and the deep link behind
/// it goes on to the dispatcher in its place. Every other result goes on as it came. Give the same
/// wrapper to every adapter and to the app's own `receive` calls: a short link that reaches the
/// dispatcher another way ends as not found.
///
/// iOS opens the app for a short link when the app is installed (the short-link domain's
/// association file claims every code), and a push or an in-app message may carry one too. A short
/// link is a redirect the service knows, so its deep link follows the rule of a route's redirect
/// (``HandlerResult/redirect(to:)``): it keeps the short link's source, scene, payload and target
/// content identifier, and only the app's own destinations are followed. A route limited to
/// `sources: [universalLink]` opens for a tapped short link, not for one in a push. A route of the
/// app that takes any one-segment path on every domain (`/{slug}`) takes the short links too, so
/// pin such a route to the web host (`https://www.example.com/{slug}`).
///
/// A long Firebase Dynamic Link on a service's domain (`https://links.example.com/?link=…`) is read
/// here, with no request, as the service reads it (``LinkServiceClient/deepLink(inLongLink:)``), and
/// its deep link follows the same rule, before any route: a route at the root (`/`) would take
/// every long link otherwise. Anyone can write a long link, so its deep link is not trusted more
/// for arriving on the team's domain: a custom-scheme `link` tapped there arrives as `.urlScheme`,
/// and a `link` without a scheme is refused. iOS opens the app for one when the manifest's
/// `shortLinks.longLinks` is on.
///
/// ```swift
/// let opening = try ShortLinkResolvingDispatcher(dispatcher, service: LinkServiceClient(domain: "links.example.com"))
/// links = SceneLinkRouter(intake: intake, dispatcher: opening, scene: scene)
/// await opening.receive(intake.url("https://links.example.com/spring"))
/// // the dispatcher receives "readapp://books/42", source .universalLink
/// ```
///
/// What the service answers decides what the dispatcher gets:
/// - the deep link: that link, with the short link's delivery identity;
/// - no link has the code: the short link itself, reported as not found, as before;
/// - expired, no answer after ``retries`` more tries, or a deep link that is not the app's own: a
///   failure (``WaypointError/Code/providerFailed``, or `invalidLink` for a deep link that does not
///   parse, or a long link whose `link` cannot be read) whose input is the short or long link; the
///   dispatcher reports it as any input that cannot run, `.invalid(message:)` with the message
///   saying why.
///
/// The dispatcher hears of the link once the service answered (each try waits at most
/// ``LinkServiceClient/resolveTimeout`` for data), after the calls made before it: the adapters
/// keep a scene's callbacks in order, so a slow answer holds that scene's later ones too. Until
/// then the link is in no pending-link store: a process killed meanwhile loses it. One delivery
/// handed over twice at once (a cold start's push reaches the scene and the notification center's
/// delegate) is asked once.
public struct ShortLinkResolvingDispatcher: LinkDispatching {
    /// Where every link goes, short links once resolved.
    public let dispatcher: any LinkDispatching
    /// The services whose short links are resolved: one for each short-link domain, since each
    /// answers only for its own.
    public let services: [LinkServiceClient]
    /// Extra tries when the service cannot be reached.
    public let retries: Int
    /// Seconds to wait before the first extra try; each next one waits twice as long.
    public let retryDelay: TimeInterval
    /// The dispatcher's policy: which destinations are the app's own, and the parsing limits.
    let policy: LinkPolicy
    /// Whether a route of the dispatcher takes the link (or refuses it): then it is the app's own
    /// link on that domain, never asked of the service.
    let isAppRoute: @Sendable (DeepLink) -> Bool
    /// Shared by the copies of this wrapper the adapters hold.
    let underWay = ResolutionsUnderWay()

    /// Resolves the short links of `service` before `dispatcher` takes them, trying `retries` more
    /// times when the service cannot be reached.
    ///
    /// - Throws: ``WaypointError`` `invalidConfiguration` when the service's domain is no host name,
    ///   or is not one of the dispatcher policy's associated domains (its links would reach the app
    ///   as web links and never be resolved), and for retries that may hold a link longer than
    ///   ``maximumWait`` offline.
    public init<Destination>(
        _ dispatcher: LinkDispatcher<Destination>,
        service: LinkServiceClient,
        retries: Int = 1,
        retryDelay: TimeInterval = 1
    ) throws(WaypointError) {
        try self.init(dispatcher, services: [service], retries: retries, retryDelay: retryDelay)
    }

    /// Resolves the short links of each of `services` (one a short-link domain) before `dispatcher`
    /// takes them.
    ///
    /// ```swift
    /// try ShortLinkResolvingDispatcher(dispatcher, services: [LinkServiceClient(domain: "links.example.com"),
    ///                                                         LinkServiceClient(domain: "go.example.com")])
    /// ```
    ///
    /// - Throws: ``WaypointError`` `invalidConfiguration` for no service, a service whose domain
    ///   is no host name or not one of the dispatcher policy's associated domains, or retries that
    ///   may hold a link longer than ``maximumWait`` offline.
    public init<Destination>(
        _ dispatcher: LinkDispatcher<Destination>,
        services: [LinkServiceClient],
        retries: Int = 1,
        retryDelay: TimeInterval = 1
    ) throws(WaypointError) {
        let resolver = dispatcher.resolver
        try Self.check(services, against: resolver.policy)
        try Self.check(retries: retries, retryDelay: retryDelay)
        self.dispatcher = dispatcher
        self.services = services
        self.retries = retries
        self.retryDelay = retryDelay
        policy = resolver.policy
        isAppRoute = { link in
            if case .notFound = resolver.resolve(link) { return false }
            return true
        }
    }

    /// A short-link domain the app is not associated with is a mistake of the setup, found here:
    /// its links would reach the dispatcher as `.web` links, which are never resolved, and every
    /// short link would end as not found without a word. Only the dispatcher's policy is known
    /// here: an intake made with another policy must associate the domain too.
    private static func check(_ services: [LinkServiceClient], against policy: LinkPolicy) throws(WaypointError) {
        try LinkServiceClient.check(services, for: "A ShortLinkResolvingDispatcher")
        for service in services {
            guard policy.isAssociated(service.domain) else {
                throw WaypointError(
                    .invalidConfiguration,
                    input: service.domain,
                    message: "The short-link domain '\(service.domain)' is not one of the policy's associated domains, "
                        + "so its links reach the app as web links and are never resolved. Add it to the policy "
                        + "(the manifest's domains) and to the app's Associated Domains."
                )
            }
        }
    }

    /// The longest a short link may wait for a service that does not answer, in seconds, counting
    /// each try's ``LinkServiceClient/resolveTimeout`` and the waits between tries: someone waits
    /// for the screen, and the adapters hold the scene's later callbacks behind the answer. The
    /// default (one more try after 1 s) waits about 11 s. (A device with no network fails each try
    /// at once; this bounds a service that takes a request and stays silent.)
    public static let maximumWait: TimeInterval = 60

    /// Retries that would hold a scene for minutes or hours are a mistake of the setup, found here
    /// rather than by the person waiting on a link.
    private static func check(retries: Int, retryDelay: TimeInterval) throws(WaypointError) {
        let problem = retriesProblem(
            retries,
            delay: retryDelay,
            tryTimeout: LinkServiceClient.resolveTimeout,
            maximumWait: maximumWait,
            what: "a short link",
            waiter: "someone waits for a screen",
            defaults: "1 try after 1 s"
        )
        if let problem { throw problem }
    }

    /// Gives `dispatcher` what ``resolved(_:)`` makes of `result`: the link's identifier from
    /// `dispatcher`, nil when it is no link to run (a failure is reported there).
    public func receive(_ result: IntakeResult, in scene: SceneID?) async -> UUID? {
        await dispatcher.receive(await resolved(result), in: scene)
    }

    /// What the dispatcher is given for `result`: the deep link behind a short or long link, a
    /// failure naming that link, or `result` itself.
    ///
    /// ```swift
    /// await opening.resolved(intake.url("https://links.example.com/spring")).link?.string   // "readapp://books/42"
    /// await opening.resolved(intake.url("https://links.example.com/?link=readapp%3A%2F%2Fbooks%2F7")).link?.string
    /// // "readapp://books/7"
    /// await opening.resolved(intake.url("readapp://books/42")).link?.string                // "readapp://books/42"
    /// ```
    public func resolved(_ result: IntakeResult) async -> IntakeResult {
        // A `.web` link is on no associated domain: not the app's to open, whatever its host.
        guard case .link(let link, let identity) = result, link.source != .web else { return result }
        for service in services {
            switch service.serviceLink(in: link.string) {
            // Read before the routes: a route at the root (`/`, `/**`) would take every long link
            // and drop its `link`.
            case .long(.success(let deepLink)):
                return followedLongLink(deepLink, from: link, identity: identity)
            case .long(.failure(let error)):
                return failure(.invalidLink, link, "The long link \(link.string) cannot be read: \(error.message)")
            case .short:
                guard !isAppRoute(link) else { return result }
                let answer = await underWay.result(for: identity) {
                    await resolve(link, identity: identity, with: service)
                }
                // Another copy of the delivery may still get the link; this one was given up on (its
                // window went away), so it hands on no link that would wait for that window.
                guard !Task.isCancelled else {
                    return failure(
                        .providerFailed,
                        link,
                        "The short link \(link.string) was not opened here: the delivery was cancelled while the "
                            + "service answered."
                    )
                }
                return answer
            case nil:
                continue
            }
        }
        return result
    }

    /// Asks `service` for the short link `link` and makes the answer what the dispatcher takes.
    private func resolve(_ link: DeepLink, identity: String, with service: LinkServiceClient) async -> IntakeResult {
        let opened: ResolvedShortLink
        do {
            opened = try await retrying(retries, firstDelay: retryDelay, when: \.isWorthAskingAgain) {
                () throws(ShortLinkError) in try await service.resolve(shortLink: link.string)
            }
        } catch .notFound {
            return .link(link, identity: identity)
        } catch {
            let why = if case .expired = error { "has expired" } else { "could not be opened" }
            return failure(.providerFailed, link, "The short link \(link.string) \(why): \(error)")
        }
        return followed(opened.deepLink, from: link, identity: identity, "short link")
    }

    /// `deepLink`, behind the long link `link`. Anyone can write a long link, where only the team
    /// makes a short one, so its deep link is not trusted more for arriving on the team's domain: a
    /// custom-scheme link tapped there arrives as `.urlScheme` (a route limited to verified
    /// universal links does not open for it), and a path without a scheme is refused, as the
    /// service refuses it. An `https` one counts as a universal link, as any redirect's does.
    private func followedLongLink(_ deepLink: String, from link: DeepLink, identity: String) -> IntakeResult {
        // Read as the redirect rule reads it; text that is no link is reported there.
        let target = try? DeepLink(deepLink, limits: policy.limits)
        if let target, target.scheme == nil {
            return failure(
                .invalidLink,
                link,
                "The long link \(link.string) leads to '\(deepLink)', which is not a whole link (it names no scheme)."
            )
        }
        var outer = link
        if link.source == .universalLink, let target, !target.isWeb { outer.source = .urlScheme }
        return followed(deepLink, from: outer, identity: identity, "long link")
    }

    /// `deepLink`, behind the short or long link `link`, as the dispatcher takes it: by the rule of
    /// a route's redirect, with `link`'s payload and target content identifier.
    private func followed(_ deepLink: String, from link: DeepLink, identity: String, _ kind: String) -> IntakeResult {
        switch policy.redirectTarget(deepLink, from: link) {
        case .own(var target):
            target.payload = link.payload
            target.targetContentIdentifier = link.targetContentIdentifier
            return .link(target, identity: identity)
        case .foreign(_, let reason):
            return failure(.providerFailed, link, "The \(kind) \(link.string) was not followed: \(reason)")
        case .invalid(let error):
            return failure(
                .invalidLink,
                link,
                "The \(kind) \(link.string) leads to '\(deepLink)', which is not a link: \(error.message)",
                underlying: error.code
            )
        }
    }

    private func failure(
        _ code: WaypointError.Code,
        _ link: DeepLink,
        _ message: String,
        underlying: WaypointError.Code? = nil
    ) -> IntakeResult {
        .failure(WaypointError(code, input: link.string, underlyingCode: underlying, message: message))
    }

    /// `dispatcher`'s answer: whether a route handled the link.
    public func isHandled(_ id: UUID) async -> Bool { await dispatcher.isHandled(id) }

    /// `dispatcher`'s answer, waiting at most `timeout` seconds on its clock.
    public func isHandled(_ id: UUID, timeout: TimeInterval) async -> Bool {
        await dispatcher.isHandled(id, timeout: timeout)
    }

    /// Tells `dispatcher`.
    public func sceneDidConnect(_ scene: SceneID, shows: Set<String>) async {
        await dispatcher.sceneDidConnect(scene, shows: shows)
    }

    /// Tells `dispatcher`.
    public func sceneDidBecomeReady(_ scene: SceneID) async { await dispatcher.sceneDidBecomeReady(scene) }

    /// Tells `dispatcher`.
    public func sceneDidBecomeActive(_ scene: SceneID) async { await dispatcher.sceneDidBecomeActive(scene) }

    /// Tells `dispatcher`.
    public func sceneDidEnterBackground(_ scene: SceneID) async { await dispatcher.sceneDidEnterBackground(scene) }

    /// Tells `dispatcher`.
    public func sceneDidDisconnect(_ scene: SceneID) async { await dispatcher.sceneDidDisconnect(scene) }
}
