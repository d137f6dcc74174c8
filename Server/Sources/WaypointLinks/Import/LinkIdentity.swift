import Foundation

/// What a link is, whatever its code, its route's name and when it was made or changed: how an
/// import tells a line it brought in before from a new one, so that a file can be run again whole.
///
/// - A line without a code gets one made from its link (``code(signedWith:)``): the same link, the
///   same code. Run again, the line finds the link it made instead of making it twice.
/// - A line whose code is taken by the link the line describes was imported before, and is counted
///   so (``ImportReport/alreadyImported``); taken by another link, it is refused as `codeTaken`.
///
/// The identity is the link's fields as a person wrote them, in a fixed order (``fields``): its
/// domain, deep link, fallbacks, preview, `passQuery` and expiry (whole seconds, as the database
/// keeps them). Not its route, which the manifest names and may rename; and an empty preview text
/// is no text, as the database and a CSV read it back. A field added to ``ShortLink`` must be
/// added here too: a test compares the two lists.
///
/// ```swift
/// let identity = LinkIdentity(of: link, domains: domains)
/// identity.code(signedWith: key)                              // "q4kz…", 14 characters
/// identity == LinkIdentity(of: stored, domains: domains)      // true: the same link
/// ```
struct LinkIdentity: Hashable {
    /// Each field's name and value (nil when absent), in a fixed order.
    let fields: [Field]

    struct Field: Hashable {
        let name: String
        let value: String?
    }

    /// The ``ShortLink`` properties the identity leaves out: the code, the route's name and the dates.
    static let leftOut: Set = ["code", "route", "createdAt", "updatedAt"]

    init(of link: ShortLink, domains: LinkDomains) {
        func text(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }
        let fallbacks = link.fallbacks
        let preview = link.preview
        fields = [
            Field(name: "domain", value: domains.domain(of: link)),
            Field(name: "deepLink", value: link.deepLink),
            Field(name: "fallbacks.appStoreID", value: text(fallbacks.appStoreID)),
            Field(name: "fallbacks.playPackage", value: text(fallbacks.playPackage)),
            Field(name: "fallbacks.web", value: text(fallbacks.web)),
            Field(name: "fallbacks.ios", value: text(fallbacks.ios)),
            Field(name: "fallbacks.android", value: text(fallbacks.android)),
            Field(name: "fallbacks.desktop", value: text(fallbacks.desktop)),
            Field(name: "preview.title", value: text(preview?.title)),
            Field(name: "preview.description", value: text(preview?.description)),
            Field(name: "preview.imageURL", value: text(preview?.imageURL)),
            Field(name: "passQuery", value: link.passQuery ? "true" : "false"),
            Field(name: "expiresAt", value: link.expiresAt.map { String(LinkRow.seconds($0)) }),
        ]
    }

    /// A code made from the link, signed with `key` (derived from the database's secret): as
    /// unguessable as a generated one to anyone who does not know the link, and on one database
    /// always the same for the same link, from one release to the next.
    func code(signedWith key: [UInt8]) -> String {
        // Each value with its length, so no value can run into the next: the bytes name one link.
        var bytes: [UInt8] = []
        for field in fields {
            bytes += Array(field.name.utf8) + [0]
            if let value = field.value { bytes += Array("\(value.utf8.count):\(value)".utf8) }
            bytes.append(0)
        }
        return CodeGenerator.make(fromDigest: SigningKey.sign(bytes, with: key))
    }
}
