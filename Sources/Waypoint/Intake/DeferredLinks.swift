import Foundation

/// Asks an attribution service for the link that led to the install.
///
/// ```swift
/// struct InstallAttribution: DeferredLinkProvider {
///     func deferredLink() async throws -> String? { try await attribution.installLink() }
/// }
/// if let result = await intake.deferredLink(from: InstallAttribution(), record: record) {
///     await dispatcher.receive(result)
/// }
/// ```
public protocol DeferredLinkProvider: Sendable {
    /// The link text, or `nil` when the install came from no link: both definite answers. Throw when
    /// the answer is not known yet (offline, a server error): the provider is asked again on the next
    /// launch, up to ``DeferredLinkState/maximumAttempts`` launches.
    func deferredLink() async throws -> String?
}

/// Where the app stands with its deferred link: still to be asked (and how often it was), or
/// settled by a definite answer.
///
/// ```swift
/// FileDeferredLinkRecord(url: file).load()   // .unsettled(attempts: 0) on a new install
/// ```
public enum DeferredLinkState: Sendable, Hashable, Codable {
    /// No definite answer yet; `attempts` launches asked and got none.
    case unsettled(attempts: Int)
    /// The provider answered (a link, or "none"), or every attempt was used: never asked again.
    case settled

    /// How many launches ask before giving up: enough for a first launch offline and a few more,
    /// few enough that a provider that always fails (or crashes the app) stops being asked.
    public static let maximumAttempts = 5
}

/// Keeps the ``DeferredLinkState`` between launches.
///
/// ```swift
/// let record = FileDeferredLinkRecord(url: file)
/// record.save(.settled)
/// record.load()   // .settled
/// ```
public protocol DeferredLinkRecord: Sendable {
    /// The state; `.unsettled(attempts: 0)` on a new install.
    func load() -> DeferredLinkState
    /// Keeps `state` for the next launch.
    func save(_ state: DeferredLinkState)
}

/// A ``DeferredLinkRecord`` in a small file: absent on a new install.
///
/// ```swift
/// let record = FileDeferredLinkRecord(url: applicationSupport.appendingPathComponent("waypoint-deferred.json"))
/// ```
public struct FileDeferredLinkRecord: DeferredLinkRecord {
    /// The record's file.
    public let url: URL
    /// A record in the file at `url`; its folder is made on the first save.
    public init(url: URL) { self.url = url }

    /// The saved state: `.unsettled(attempts: 0)` when there is no file, `.settled` when it cannot be read
    /// (asking again for ever is worse than missing one attribution).
    public func load() -> DeferredLinkState {
        guard FileManager.default.fileExists(atPath: url.path) else { return .unsettled(attempts: 0) }
        // A file that cannot be read counts as settled: asking again for ever is worse than missing
        // one attribution.
        guard let data = try? Data(contentsOf: url) else { return .settled }
        return (try? JSONDecoder().decode(DeferredLinkState.self, from: data)) ?? .settled
    }

    /// Writes `state` to the file, making its folder first.
    public func save(_ state: DeferredLinkState) {
        guard let data = try? JSONEncoder().encode(state) else { return }
        // The folder (Application Support, say) may not exist yet on a new install; without it the
        // record would never be written and the provider asked on every launch.
        try? FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        _ = FileManager.default.createFile(atPath: url.path, contents: data)
    }
}

extension LinkIntake {
    /// Asks `provider` for the deferred link until it gives a definite answer: on the first launch,
    /// and again on later launches while it fails (offline, say), at most
    /// ``DeferredLinkState/maximumAttempts`` launches. The attempt is recorded before asking, so a
    /// provider that crashes the app still runs out of attempts. The result is untrusted: it is
    /// parsed strictly with source `.deferred` and goes through policy like any other link. Ask
    /// from one place once a launch (the app delegate's launch, not each window's `.task`): the
    /// record is read before the provider answers and settled after, so two asks at once both get
    /// the link, and the dispatcher runs the second again if the first has finished by then.
    ///
    /// ```swift
    /// if let result = await intake.deferredLink(from: provider, record: record) {
    ///     await dispatcher.receive(result)   // .link, or .failure(.providerFailed) to be asked again
    /// }
    /// ```
    ///
    /// - Returns: `nil` when the state is settled or there is no deferred link; a
    ///   ``WaypointError/Code/providerFailed`` failure when the provider failed this time.
    public func deferredLink(
        from provider: some DeferredLinkProvider,
        record: some DeferredLinkRecord
    ) async -> IntakeResult? {
        guard case .unsettled(let attempts) = record.load(), attempts < DeferredLinkState.maximumAttempts else {
            return nil
        }
        let attempt = attempts + 1
        record.save(attempt < DeferredLinkState.maximumAttempts ? .unsettled(attempts: attempt) : .settled)
        let text: String?
        do {
            text = try await provider.deferredLink()
        } catch {
            let next =
                attempt < DeferredLinkState.maximumAttempts
                ? "it is asked again on the next launch"
                : "it was asked \(attempt) times and is not asked again"
            return .failure(
                WaypointError(
                    .providerFailed,
                    input: "\(type(of: provider))",
                    message: "The deferred-link provider failed (\(error)); \(next)."
                )
            )
        }
        record.save(.settled)
        guard let text else { return nil }
        return result { () throws(WaypointError) in
            let link = try parse(text, strict: true, source: .deferred)
            return .link(link, identity: DeliveryIdentity.deferred(link))
        }
    }
}
