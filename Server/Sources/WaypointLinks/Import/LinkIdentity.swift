import Foundation

/// What a link is, whatever its code and whenever it was made or changed: how an import tells a
/// line it brought in before from a new one, so that a file can be run again whole.
///
/// - A line without a code gets one made from its link (``code(signedWith:)``): the same link, the
///   same code. Run again, the line finds the link it made instead of making it twice.
/// - A line whose code is taken by the link the line describes was imported before, and is counted
///   so (``ImportReport/alreadyImported``); taken by another link, it is refused as `codeTaken`.
///
/// ```swift
/// let identity = LinkIdentity(of: link, domains: domains)
/// identity.code(signedWith: key)                              // "q4kz…", 14 characters
/// identity == LinkIdentity(of: stored, domains: domains)      // true: the same link
/// ```
struct LinkIdentity: Hashable {
    /// The link with its code and dates left out, its domain named, and its expiry in the whole
    /// seconds the database keeps.
    private let link: ShortLink

    init(of link: ShortLink, domains: LinkDomains) {
        var link = link
        link.domain = domains.domain(of: link)
        link.code = ""
        link.expiresAt = link.expiresAt.map { LinkRow.date(LinkRow.seconds($0)) }
        link.createdAt = Date(timeIntervalSince1970: 0)
        link.updatedAt = link.createdAt
        self.link = link
    }

    /// A code made from the link, signed with `key` (derived from the database's secret): as
    /// unguessable as a generated one to anyone who does not know the link, and on one database
    /// always the same for the same link. Nil only if the link cannot be written as JSON, which
    /// its fields (text, whole seconds) never cause; the caller then generates a code as before.
    func code(signedWith key: [UInt8]) -> String? {
        let encoder = JSONEncoder()
        // Sorted, so the same link is always the same bytes.
        encoder.outputFormatting = .sortedKeys
        guard let json = try? encoder.encode(link) else { return nil }
        return CodeGenerator.make(fromDigest: SigningKey.sign(json, with: key))
    }
}
