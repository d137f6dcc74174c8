import Foundation
import Waypoint

/// The files a domain serves so that iOS and Android open the app for its links, as the bytes to
/// serve: what `waypoint aasa generate` and `waypoint assetlinks generate` print, and what the
/// Waypoint Links service serves at `/.well-known/`.
///
/// ```swift
/// let files = AssociationFiles(manifest: manifest)
/// let aasa = try files.appleAppSiteAssociation(for: "example.com")  // {"applinks": {"details": [...]}}
/// let assetLinks = try files.assetLinks()                             // [{"relation": [...], "target": {...}}]
/// ```
public struct AssociationFiles: Sendable {
    /// The manifest the files are made from.
    public let manifest: Manifest

    /// Apple's limit: iOS does not read a larger apple-app-site-association.
    public static let appleSizeLimit = AASADocument.sizeLimit

    /// The files for `manifest`'s app IDs, routes and Android app; nothing is made until asked.
    public init(manifest: Manifest) { self.manifest = manifest }

    /// The apple-app-site-association `domain` serves, pretty-printed JSON with sorted keys.
    ///
    /// - Throws: ``AssociationFileError`` when `domain` is not a domain name, the manifest lists no
    ///   app IDs, or the file exceeds ``appleSizeLimit`` (the error then carries the file).
    public func appleAppSiteAssociation(for domain: String) throws(AssociationFileError) -> Data {
        if let problem = DomainPattern.problem(domain) {
            throw AssociationFileError(code: .invalidDomain, message: problem)
        }
        guard !manifest.appIDs.isEmpty else {
            throw AssociationFileError(
                code: .noAppIDs,
                message: "The manifest lists no appIDs (TEAMID.bundle.id); the file would name no app."
            )
        }
        let data = Self.encode(AASAGenerator(manifest: manifest).document(for: domain).json)
        if let tooLarge = AASADocument.sizeProblem(bytes: data.count) {
            throw AssociationFileError(code: .tooLarge, message: "\(domain): \(tooLarge.message)", file: data)
        }
        return data
    }

    /// Android's `assetlinks.json` for the manifest's Android app, pretty-printed JSON.
    ///
    /// - Throws: ``AssociationFileError`` with code `noAndroidApp` when the manifest has no
    ///   `android` section or its fingerprints are missing or malformed.
    public func assetLinks() throws(AssociationFileError) -> Data {
        do throws(ManifestError) {
            return Self.encode(try AssetLinksGenerator(manifest: manifest).json())
        } catch {
            throw AssociationFileError(code: .noAndroidApp, message: error.message)
        }
    }

    /// Sorted keys and no escaped slashes, so the same manifest gives the same bytes everywhere.
    package static func encode(_ value: PayloadValue) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // A PayloadValue holds only JSON values; the generators make no non-finite number.
        return (try? encoder.encode(value)) ?? Data("null".utf8)
    }
}

/// Why an association file could not be made.
///
/// ```swift
/// do { _ = try files.appleAppSiteAssociation(for: "exa mple.com") }
/// catch { error.code }  // .invalidDomain
/// ```
public struct AssociationFileError: Error, Sendable, CustomStringConvertible {
    /// Which problem it is.
    ///
    /// ```swift
    /// error.code.rawValue   // "invalidDomain"
    /// ```
    public enum Code: String, Sendable {
        /// The domain asked for is not a domain name.
        case invalidDomain
        /// The manifest lists no `appIDs`, so no app could claim the domain's links.
        case noAppIDs
        /// The apple-app-site-association is larger than iOS reads.
        case tooLarge
        /// assetlinks.json was asked for, and the manifest has no `android` section, or its
        /// fingerprints are missing or malformed.
        case noAndroidApp
    }

    /// Which problem it is.
    public let code: Code
    /// What went wrong and what to change, for a person.
    public let message: String
    /// With `tooLarge`: the file as generated, for a person to inspect.
    public let file: Data?

    /// An error with its `code`, a `message` for people, and with `tooLarge` the file as made.
    public init(code: Code, message: String, file: Data? = nil) {
        self.code = code
        self.message = message
        self.file = file
    }

    public var description: String { message }
}
