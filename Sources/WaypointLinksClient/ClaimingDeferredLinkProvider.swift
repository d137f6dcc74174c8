import Foundation
import Waypoint

/// The deferred link from a Waypoint Links service: on the first launch it looks for a claim URL
/// (the pasteboard, without reading it unless one may be there), claims its token once, and hands
/// the deep link to the dispatcher's deferred-link path, where policy, routing and barriers apply
/// as to any other link.
///
/// ```swift
/// let provider = ClaimingDeferredLinkProvider(
///     service: LinkServiceClient(domain: "links.example.com"),
///     source: UIPasteboardClaimURLSource()
/// ) { report in logger.info("deferred link: \(report)") }
/// if let result = await intake.deferredLink(from: provider, record: record) {
///     await dispatcher.receive(result)   // "readapp://books/42", through policy like any link
/// }
/// ```
///
/// Offline, it tries ``retries`` more times in this launch and then throws, so the core asks again
/// on the next launch (``DeferredLinkState/maximumAttempts`` in all). Every definite answer —
/// nothing on the pasteboard, not our URL, already claimed, expired — returns nil, so it is never
/// asked again, and is reported through `report` with its reason.
public struct ClaimingDeferredLinkProvider: DeferredLinkProvider {
    /// The service asked first: the only one, or the first of ``services``.
    public var service: LinkServiceClient { services[0] }
    /// The services whose claim URLs are claimed, one a short-link domain: the service writes a
    /// click's claim URL on the domain of the link clicked, so an app with links on two domains
    /// must know both.
    public let services: [LinkServiceClient]
    /// Where the claim URL is looked for.
    public let source: any ClaimURLSource
    /// Extra tries in one launch when the service cannot be reached.
    public let retries: Int
    /// Seconds to wait before the first extra try; each next one waits twice as long. (Seconds
    /// rather than `Duration`, which needs iOS 16.)
    public let retryDelay: TimeInterval
    let report: @Sendable (DeferredLinkReport) -> Void

    /// A provider that claims through `service` what `source` holds, trying `retries` more times in
    /// one launch when the service cannot be reached, and telling `report` what each launch found.
    /// A `service` whose domain is no host name is reported, and thrown, by each launch's check
    /// (``DeferredLinkState/maximumAttempts`` in all). Retries that
    /// ``init(services:source:retries:retryDelay:report:)`` would refuse are fitted here instead, so
    /// an app that asked for more still claims: a negative or non-finite value is 0, and more tries
    /// than fit in ``maximumWait`` are as many as fit (``retries`` and ``retryDelay`` read as fitted).
    ///
    /// ```swift
    /// ClaimingDeferredLinkProvider(service: service, source: source, retries: 5).retries  // 2
    /// ```
    public init(
        service: LinkServiceClient,
        source: any ClaimURLSource,
        retries: Int = 2,
        retryDelay: TimeInterval = 2,
        report: @escaping @Sendable (DeferredLinkReport) -> Void = { _ in }
    ) {
        let delay = retryDelay.isFinite ? max(0, retryDelay) : 0
        // Four tries of 15 s already fill the minute: counting down from there is enough.
        var fitted = min(max(0, retries), 4)
        while fitted > 0, Self.problem(retries: fitted, retryDelay: delay) != nil { fitted -= 1 }
        self.services = [service]
        self.source = source
        self.retries = fitted
        self.retryDelay = delay
        self.report = report
    }

    /// A provider that claims a claim URL of any of `services` (one for each short-link domain)
    /// through the service on its domain.
    ///
    /// ```swift
    /// let provider = try ClaimingDeferredLinkProvider(
    ///     services: [LinkServiceClient(domain: "links.example.com"), LinkServiceClient(domain: "go.example.com")],
    ///     source: UIPasteboardClaimURLSource()
    /// )
    /// // "https://go.example.com/c/AQE…" on the pasteboard is claimed from go.example.com
    /// ```
    ///
    /// - Throws: ``WaypointError`` `invalidConfiguration` for no service, a service whose domain
    ///   is no host name (`links example.com`, `*.example.com`: no claim URL could ever match it),
    ///   a negative count or delay, or retries that may take longer than ``maximumWait`` when the
    ///   service does not answer.
    public init(
        services: [LinkServiceClient],
        source: any ClaimURLSource,
        retries: Int = 2,
        retryDelay: TimeInterval = 2,
        report: @escaping @Sendable (DeferredLinkReport) -> Void = { _ in }
    ) throws(WaypointError) {
        try LinkServiceClient.check(services, for: "A ClaimingDeferredLinkProvider")
        if let problem = Self.problem(retries: retries, retryDelay: retryDelay) { throw problem }
        self.services = services
        self.source = source
        self.retries = retries
        self.retryDelay = retryDelay
        self.report = report
    }

    /// The longest one launch's claim may take when the service does not answer, in seconds,
    /// counting each try's 15 s and the waits between tries: the person is on the app's first
    /// screen, and a deferred link that lands a minute later lands on whatever they chose since.
    /// The default (two more tries, after 2 s and 4 s) takes at most 51 s.
    public static let maximumWait: TimeInterval = 60

    /// Why the retries are refused (see ``maximumWait``), or nil.
    private static func problem(retries: Int, retryDelay: TimeInterval) -> WaypointError? {
        WaypointLinksClient.retriesProblem(
            retries,
            delay: retryDelay,
            tryTimeout: LinkServiceClient.claimTimeout,
            maximumWait: maximumWait,
            what: "a deferred link's claim",
            waiter: "a first launch waits for it",
            defaults: "2 more tries, after 2 s and 4 s"
        )
    }

    /// The claimed deep link; `nil` for every definite answer (nothing to claim, not the service's
    /// URL, already claimed, expired). Throws when the service could not be reached after every try,
    /// so the core asks again on the next launch, and when a client's domain is no host name
    /// (`links example.com`, `*.example.com`): no claim URL could ever match it, and saying the
    /// pasteboard held someone else's URL would hide the mistake.
    public func deferredLink() async throws -> String? {
        for service in services {
            if let problem = LinkServiceClient.domainProblem(service.domain) {
                report(.unavailable(problem))
                throw ClaimError.unavailable(problem)
            }
        }
        guard await source.mayHoldClaimURL() else {
            report(.nothingToClaim)
            return nil
        }
        guard let text = await source.claimText() else {
            // On iOS: the person declined the paste prompt, or the pasteboard changed meanwhile.
            report(.nothingToClaim)
            return nil
        }
        // The service on the claim URL's own domain claims it.
        guard
            let (service, token) = services.lazy.compactMap({ service in
                service.token(inClaimURL: text).map { (service, $0) }
            }).first
        else {
            report(.notAClaimURL)
            return nil
        }
        do {
            let claimed = try await retrying(retries, firstDelay: retryDelay, when: \.isWorthAskingAgain) {
                () throws(ClaimError) in try await service.claim(token: token)
            }
            report(.claimed(claimed))
            return claimed.deepLink
        } catch .refused(let refusal, let message) {
            report(.refused(refusal, message: message))
            return nil
        } catch .unavailable(let message) {
            report(.unavailable(message))
            throw ClaimError.unavailable(message)
        }
    }
}

/// What one deferred-link check found: the app's log or analytics tell from it why a first launch
/// did or did not land on a linked screen.
///
/// ```swift
/// ClaimingDeferredLinkProvider(service: service, source: UIPasteboardClaimURLSource()) { report in
///     analytics.log("deferred link: \(report)")   // "deferred link: no claim URL to claim"
/// }
/// ```
public enum DeferredLinkReport: Sendable, Hashable, CustomStringConvertible {
    /// The claim gave this link.
    case claimed(ClaimedLink)
    /// The source held nothing that could be a claim URL (the usual first launch: no link was
    /// tapped), or the person declined the paste prompt.
    case nothingToClaim
    /// The source held text that is not this service's claim URL: left alone.
    case notAClaimURL
    /// The service answered no, definitely.
    case refused(ClaimError.Refusal, message: String)
    /// The service could not be reached in this launch; the next launch asks again.
    case unavailable(String)

    public var description: String {
        switch self {
        case .claimed(let link): "claimed \(link.code): \(link.deepLink)"
        case .nothingToClaim: "no claim URL to claim"
        case .notAClaimURL: "the pasteboard held something else"
        case .refused(let refusal, let message): "refused (\(refusal.rawValue)): \(message)"
        case .unavailable(let message): "unavailable: \(message)"
        }
    }
}
