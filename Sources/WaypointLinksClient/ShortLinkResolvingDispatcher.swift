import Foundation
import Waypoint

/// A dispatcher that opens the link service's short links: a link that is a short link of the
/// service (`https://links.example.com/spring`) is first asked of the service
/// (``LinkServiceClient/resolve(shortLink:)``), and the deep link behind it goes on to `dispatcher`
/// in its place. Every other result goes on as it came.
///
/// iOS opens the app for a short link when the app is installed (the short-link domain's
/// association file claims every code), and a push or an in-app message may carry one too. The
/// deep link keeps the short link's source, as a route's redirect does, so a short link never
/// reaches a route its own source could not: a route limited to `sources: [universalLink]` opens
/// for a tapped short link, not for one in a push. Give it to the adapters in place of the
/// dispatcher:
///
/// ```swift
/// let opening = ShortLinkResolvingDispatcher(dispatcher, service: LinkServiceClient(domain: "links.example.com"))
/// links = SceneLinkRouter(intake: intake, dispatcher: opening, scene: scene)
/// await opening.receive(intake.url("https://links.example.com/spring"))
/// // the dispatcher receives "readapp://books/42", source .universalLink
/// ```
///
/// What the service answers decides what the dispatcher gets:
/// - the deep link: that link, with the short link's source and delivery identity;
/// - no link has the code: the short link itself, so one of the app's own routes on that domain
///   still matches it, and otherwise it is reported as not found, as before;
/// - expired, or no answer after ``retries`` more tries: a failure with
///   ``WaypointError/Code/providerFailed``, the short link as its input, reported like any link
///   that cannot run.
///
/// The dispatcher hears of the link once the service answered, after the calls made before it:
/// the adapters keep a scene's callbacks in order, so a slow answer holds that scene's later ones
/// too (at most 10 seconds a try).
public struct ShortLinkResolvingDispatcher: LinkDispatching {
    /// Where every link goes, short links once resolved.
    public let dispatcher: any LinkDispatching
    /// The service whose short links are resolved.
    public let service: LinkServiceClient
    /// Extra tries when the service cannot be reached.
    public let retries: Int
    /// Seconds to wait before the first extra try; each next one waits twice as long.
    public let retryDelay: TimeInterval
    /// The limits a deep link from the service is parsed within: the app's policy's.
    public let limits: LinkLimits

    /// Resolves the short links of `service` before `dispatcher` takes them, trying `retries` more
    /// times when the service cannot be reached. An app with limits of its own passes its policy's
    /// (`intake.policy.limits`).
    public init(
        _ dispatcher: any LinkDispatching,
        service: LinkServiceClient,
        retries: Int = 1,
        retryDelay: TimeInterval = 1,
        limits: LinkLimits = .default
    ) {
        self.dispatcher = dispatcher
        self.service = service
        self.retries = max(0, retries)
        self.retryDelay = max(0, retryDelay)
        self.limits = limits
    }

    /// Gives `dispatcher` what ``resolved(_:)`` makes of `result`: the link's identifier from
    /// `dispatcher`, nil when it is no link to run (a failure is reported there).
    public func receive(_ result: IntakeResult, in scene: SceneID?) async -> UUID? {
        await dispatcher.receive(await resolved(result), in: scene)
    }

    /// What the dispatcher is given for `result`: the deep link behind a short link, a failure
    /// naming the short link, or `result` itself.
    ///
    /// ```swift
    /// await opening.resolved(intake.url("https://links.example.com/spring")).link?.string   // "readapp://books/42"
    /// await opening.resolved(intake.url("myapp://books/42")).link?.string                  // "myapp://books/42"
    /// ```
    public func resolved(_ result: IntakeResult) async -> IntakeResult {
        // A `.web` link is on no associated domain: not the app's to open, whatever its host.
        guard case .link(let link, let identity) = result, link.source != .web,
            service.code(inShortLink: link.string) != nil
        else { return result }
        let opened: ResolvedShortLink
        do {
            opened = try await retrying(retries, firstDelay: retryDelay, when: \.isWorthAskingAgain) {
                () throws(ShortLinkError) in try await service.resolve(shortLink: link.string)
            }
        } catch .notFound {
            return result
        } catch {
            let why = if case .expired = error { "has expired" } else { "could not be opened" }
            return .failure(
                WaypointError(
                    .providerFailed,
                    input: link.string,
                    message: "The short link \(link.string) \(why): \(error)"
                )
            )
        }
        do {
            var target = try DeepLink(opened.deepLink, source: link.source, limits: limits)
            target.payload = link.payload
            return .link(target, identity: identity)
        } catch {
            return .failure(
                WaypointError(
                    .invalidLink,
                    input: link.string,
                    underlyingCode: error.code,
                    message:
                        "The short link \(link.string) leads to '\(opened.deepLink)', which is not a link: \(error.message)"
                )
            )
        }
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
