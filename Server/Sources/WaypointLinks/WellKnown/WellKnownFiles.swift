import Crypto
import Foundation
import Waypoint
import WaypointManifest

/// The association files each of the manifest's domains serves at `/.well-known/`, made once at
/// start-up by the same code as `waypoint aasa generate` and `waypoint assetlinks generate`.
///
/// Making them at start-up is what lets the service refuse to start with a file iOS would drop
/// (over 128 KB) instead of serving it.
///
/// ```swift
/// let files = try WellKnownFiles(manifest: manifest)
/// files.appleAppSiteAssociation(forHost: "read.example.com")?.body  // the JSON iOS fetches
/// files.appleAppSiteAssociation(forHost: "evil.example")            // nil: not a domain of the app
/// ```
public struct WellKnownFiles: Sendable {
    /// A file's bytes and its entity tag (a hash of the bytes, so every instance gives the same tag).
    public struct File: Sendable, Hashable {
        public let body: Data
        public let entityTag: String

        init(_ body: Data) {
            self.body = body
            self.entityTag = "\"" + Hexadecimal.encode(SHA256.hash(data: body).prefix(16)) + "\""
        }
    }

    /// The manifest's domains, exact names before wildcards, each with its file.
    private let appleFiles: [(domain: DomainPattern, file: File)]
    /// `nil` when the manifest has no `android` section: the service then answers 404 for it.
    public let assetLinks: File?

    /// - Throws: ``AssociationFileError`` when the manifest lists no domains or app IDs, or a
    ///   domain's file is over Apple's limit.
    public init(manifest: Manifest) throws(AssociationFileError) {
        guard !manifest.domains.isEmpty else {
            throw AssociationFileError(
                code: .invalidDomain,
                message: "The manifest lists no domains; add the domains the service answers for under 'domains'."
            )
        }
        let files = AssociationFiles(manifest: manifest)
        var appleFiles: [(domain: DomainPattern, file: File)] = []
        for domain in manifest.domains.sorted(by: { !$0.hasPrefix("*.") && $1.hasPrefix("*.") }) {
            appleFiles.append((DomainPattern(domain), File(try files.appleAppSiteAssociation(for: domain))))
        }
        self.appleFiles = appleFiles
        self.assetLinks = manifest.android == nil ? nil : File(try files.assetLinks())
    }

    /// The apple-app-site-association for a request's host (a port and a trailing dot ignored);
    /// `nil` when the host is none of the manifest's domains.
    public func appleAppSiteAssociation(forHost host: String) -> File? {
        let name = Authority.host(host)
        return appleFiles.first { $0.domain.matches(name) }?.file
    }

    /// Whether `host` (as the `Host` header gives it) is one of the manifest's domains.
    public func serves(host: String) -> Bool { appleAppSiteAssociation(forHost: host) != nil }
}
