import Foundation

/// Asks an attribution service for the link that led to the install.
public protocol DeferredLinkProvider: Sendable {
    /// The link text, or `nil` when the install came from no link.
    func deferredLink() async throws -> String?
}

/// Remembers whether the app has launched before, so the deferred link is asked for once.
public protocol LaunchMarker: Sendable {
    /// `true` the first time, then `false` for ever once ``markLaunched()`` ran.
    func isFirstLaunch() -> Bool
    func markLaunched()
}

/// A ``LaunchMarker`` that is a file: absent on the first launch.
public struct FileLaunchMarker: LaunchMarker {
    public let url: URL
    public init(url: URL) { self.url = url }
    public func isFirstLaunch() -> Bool { !FileManager.default.fileExists(atPath: url.path) }
    public func markLaunched() { _ = FileManager.default.createFile(atPath: url.path, contents: Data()) }
}

extension LinkIntake {
    /// On the first launch only, asks `provider` for the deferred link. The launch is marked before
    /// asking, so a crash while asking never asks twice. The result is untrusted: it is parsed
    /// strictly with source `.deferred` and goes through policy like any other link.
    ///
    /// - Returns: `nil` when this is not the first launch or there is no deferred link.
    public func deferredLink(from provider: some DeferredLinkProvider, marker: some LaunchMarker) async -> IntakeResult?
    {
        guard marker.isFirstLaunch() else { return nil }
        marker.markLaunched()
        let text: String?
        do {
            text = try await provider.deferredLink()
        } catch {
            return .failure(
                IntakeError(
                    .providerFailed,
                    input: "\(type(of: provider))",
                    message: "The deferred-link provider failed: \(error)"
                )
            )
        }
        guard let text else { return nil }
        return result { () throws(IntakeError) in
            let link = try parse(text, strict: true, source: .deferred)
            return .link(link, identity: "deferred:" + link.string)
        }
    }
}
