import CSV
import Foundation
import Hummingbird
import NIOCore

/// Links brought in from a file: `POST /api/links/import?format=fdl|csv|jsonl` (the body is the
/// file) and `waypoint-links import FILE --format …`. Every link is created as `POST /api/links`
/// would create it (``BulkCreation``); a line that cannot be is reported with its number and why,
/// and the others are imported. A file that cannot be read at all (a CSV with an unknown column)
/// imports nothing.
///
/// ```swift
/// let report = try await LinkImport(format: .fdl).run("spring,https://x.page.link/?link=…", api: api)
/// report.imported  // 1
/// ```
public struct LinkImport: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        /// A line a link: `CODE,LONG_LINK` or `LONG_LINK`, a long Firebase Dynamic Link (``DynamicLink``).
        case fdl
        /// ``LinkCSV``: a header row, then a row a link, as `export --format csv` writes.
        case csv
        /// One JSON object a line, as `POST /api/links` takes it or `export --format jsonl` writes it.
        case jsonl
    }

    public var format: Format
    /// The short-link domain for links that name none (the manifest's first when nil).
    public var domain: String?

    public init(format: Format, domain: String? = nil) {
        self.format = format
        self.domain = domain
    }

    /// The most bytes `POST /api/links/import` reads: tens of thousands of long Dynamic Links.
    static let maxRequestBytes = 32 * 1024 * 1024
    /// The most links `POST /api/links/import` takes from one file, counted before any is created,
    /// so that a request's memory and time stay bounded; `waypoint-links import` takes any number.
    static let maxRequestLinks = 50_000

    /// One link of the file: where it is, and what it asks for or why it cannot be read.
    struct Line {
        let number: Int
        var input: Result<LinkInput, LinkServiceError>
    }

    /// The file's links, read; nothing is created yet.
    ///
    /// - Parameter limit: the most links the file may hold.
    /// - Throws: ``LinkServiceError`` `invalidRequest` when the file as a whole cannot be read, and
    ///   also when it holds more than `limit` links.
    /// - Parameter shortLinkDomains: the manifest's short-link domains: a Dynamic Link line on one of
    ///   them keeps it.
    func lines(
        of text: String,
        limit: Int = .max,
        shortLinkDomains: LinkDomains = LinkDomains(nil)
    ) throws(LinkServiceError) -> (lines: [Line], ignored: [String: Int]) {
        // Excel and Notepad begin a UTF-8 file with a byte order mark; it is no part of the first line.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        switch format {
        case .fdl: return try dynamicLinks(numberedLines(text, limit: limit), shortLinkDomains: shortLinkDomains)
        case .jsonl: return (try jsonLines(numberedLines(text, limit: limit)), [:])
        case .csv: return (try csvRows(text, limit: limit), [:])
        }
    }

    /// The lines of a line-based format; blank lines and lines starting with `#` are passed over.
    /// Lines end at "\n" alone ("\r\n" too, its "\r" trimmed): a JSON text may hold U+2028, which
    /// Unicode counts as a line break, and an export writes it as it is.
    private func numberedLines(_ text: String, limit: Int) throws(LinkServiceError) -> [(number: Int, text: String)] {
        var lines: [(number: Int, text: String)] = []
        var rest = text[...]
        var number = 0
        while !rest.isEmpty {
            number += 1
            let end = rest.utf8.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
            let trimmed = rest[..<end].trimmingCharacters(in: .whitespacesAndNewlines)
            rest = end == rest.endIndex ? rest[end...] : rest[rest.utf8.index(after: end)...]
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard lines.count < limit else { throw Self.tooManyLinks(limit) }
            lines.append((number, trimmed))
        }
        return lines
    }

    static func tooManyLinks(_ limit: Int) -> LinkServiceError {
        // A count, like bulk's 1,000 items: 400, as 413 is for bytes.
        LinkServiceError(
            .invalidRequest,
            "The file holds over \(limit) links, the most one request takes; nothing was imported. "
                + "Split it, or run 'waypoint-links import', which takes any number."
        )
    }

    private func dynamicLinks(
        _ numbered: [(number: Int, text: String)],
        shortLinkDomains: LinkDomains
    ) -> (lines: [Line], ignored: [String: Int]) {
        var ignored: [String: Int] = [:]
        let lines = numbered.map { number, line in
            do throws(LinkServiceError) {
                let (parsed, movedFrom) = try dynamicLink(line, shortLinkDomains: shortLinkDomains)
                for name in parsed.ignored { ignored[name, default: 0] += 1 }
                // Not an error (a page.link host can come nowhere), and not unseen either.
                if let movedFrom {
                    let note = "the short link's host \(movedFrom) (not in shortLinks.domains: its code moved)"
                    ignored[note, default: 0] += 1
                }
                return Line(number: number, input: .success(parsed.input))
            } catch {
                return Line(number: number, input: .failure(error))
            }
        }
        return (lines, ignored)
    }

    /// One line of `--format fdl`: `CODE,LONG_LINK`, `SHORT_LINK,LONG_LINK` or `LONG_LINK`, the two
    /// fields split at a tab or else at the first comma. A short link's last path segment is the
    /// code, as teams' records hold them (`https://x.page.link/spring`). The link stays on its own
    /// domain when the short link's or the long link's host is one of `shortLinkDomains` (a custom
    /// domain Firebase served, now pointed here), else it goes on ``domain``: a `page.link` host is
    /// Google's and reaches no service. Returns the link and, for a short link on another host,
    /// that host, which the report counts.
    private func dynamicLink(
        _ line: String,
        shortLinkDomains: LinkDomains
    ) throws(LinkServiceError) -> (link: DynamicLink, movedFrom: String?) {
        var code: String?
        var ownDomain: String?
        var movedFrom: String?
        var link = line
        // A URL holds no raw tab: a third tab-separated field would be read into the long link's
        // last parameter without a word.
        let tabs = line.utf8.count { $0 == UInt8(ascii: "\t") }
        guard tabs <= 1 else {
            throw LinkServiceError(
                .invalidRequest,
                "The line has \(tabs + 1) tab-separated fields; give two, the code or short link and the long link."
            )
        }
        let separator = line.firstIndex(of: "\t") ?? line.firstIndex(of: ",")
        if let separator {
            let first = line[..<separator].trimmingCharacters(in: .whitespaces)
            let rest = line[line.index(after: separator)...].trimmingCharacters(in: .whitespaces)
            if !first.contains(":") {
                // A code never holds ":"; a URL's scheme does.
                (code, link) = (first, rest)
            } else if Self.isWebURL(rest) {
                let short = try Self.shortLink(first, on: shortLinkDomains)
                (code, ownDomain) = (short.code, short.domain)
                if short.domain == nil { movedFrom = URLComponents(string: first)?.host?.lowercased() }
                link = rest
            }
            // Else the comma is the long link's own (`st=Spring,+again`): the line is one link.
        }
        if ownDomain == nil, let host = URLComponents(string: link)?.host {
            ownDomain = shortLinkDomains.domain(named: host)
        }
        if ownDomain != nil { movedFrom = nil }
        return (try DynamicLink(link, code: code, domain: ownDomain ?? domain), movedFrom)
    }

    private static func isWebURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("https://") || lowered.hasPrefix("http://")
    }

    typealias ShortLinkField = (code: String, domain: String?)

    /// The code of a short link written whole, and its domain when that is one of `domains`.
    ///
    /// - Throws: `invalidRequest` for a URL whose path is not one segment.
    private static func shortLink(_ text: String, on domains: LinkDomains) throws(LinkServiceError) -> ShortLinkField {
        let components = URLComponents(string: text)
        let segments = (components?.path ?? "").split(separator: "/")
        guard let components, let host = components.host, isWebURL(text), segments.count == 1 else {
            throw LinkServiceError(
                .invalidRequest,
                "The first field '\(text)' is neither a code nor a short link (https://DOMAIN/CODE); write the "
                    + "code, the short link, or the long link alone."
            )
        }
        return (String(segments[0]), domains.domain(named: host))
    }

    /// A link a line, as the API takes it; the fields only the API's answer has are passed over.
    private struct JSONLine: Decodable {
        let input: LinkInput
        init(from decoder: any Decoder) throws {
            input = try LinkInput(from: decoder, ignoring: LinkInput.answerOnlyKeys)
        }
    }

    private func jsonLines(_ numbered: [(number: Int, text: String)]) -> [Line] {
        numbered.map { number, line in
            do {
                var input = try JSONBody.decoder.decode(JSONLine.self, from: Data(line.utf8)).input
                if input.domain == nil { input.domain = domain }
                return Line(number: number, input: .success(input))
            } catch let error as LinkServiceError {
                return Line(number: number, input: .failure(error))
            } catch let error as DecodingError {
                return Line(
                    number: number,
                    input: .failure(LinkServiceError(.invalidRequest, JSONBody.describe(error, subject: "the line")))
                )
            } catch {
                return Line(
                    number: number,
                    input: .failure(LinkServiceError(.invalidRequest, "The line could not be read: \(error)"))
                )
            }
        }
    }

    private func csvRows(_ text: String, limit: Int) throws(LinkServiceError) -> [Line] {
        let starts = try CSVRecords.starts(of: text, limit: limit)
        var nextStart = starts.startIndex
        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: true)
        } catch {
            throw LinkServiceError(.invalidRequest, "The CSV could not be read: \(error)")
        }
        guard let header = reader.headerRow?.map({ $0.trimmingCharacters(in: .whitespaces) }) else {
            throw LinkServiceError(.invalidRequest, "The CSV is empty; its first row names the columns.")
        }
        try LinkCSV.checkHeader(header)
        var lines: [Line] = []
        var record = 0
        while let row = reader.next() {
            record += 1
            if row.allSatisfy(\.isEmpty) { continue }
            // The line the row starts on: the reader ends records where ``CSVRecords`` does.
            while nextStart < starts.endIndex && starts[nextStart].record < record { nextStart += 1 }
            let number =
                nextStart < starts.endIndex && starts[nextStart].record == record ? starts[nextStart].line : record + 1
            guard row.count == header.count else {
                lines.append(
                    Line(
                        number: number,
                        input: .failure(
                            LinkServiceError(
                                .invalidRequest,
                                "The row has \(row.count) cells; the header names \(header.count)."
                            )
                        )
                    )
                )
                continue
            }
            do throws(LinkServiceError) {
                var input = try LinkCSV.input(Dictionary(zip(header, row), uniquingKeysWith: { first, _ in first }))
                if input.domain == nil { input.domain = domain }
                lines.append(Line(number: number, input: .success(input)))
            } catch {
                lines.append(Line(number: number, input: .failure(error)))
            }
        }
        if let error = reader.error {
            throw LinkServiceError(.invalidRequest, "The CSV could not be read past row \(record + 1): \(error)")
        }
        return lines
    }

    /// How the report counts `si` images left out: not `https` on the manifest's domains or image hosts.
    static let offDomainImage = "si (not an https image on the manifest's domains or shortLinks.imageHosts)"

    /// Reads the file and creates its links.
    ///
    /// - Parameter limit: the most links the file may hold; over it, nothing is created.
    /// - Throws: ``LinkServiceError``: `invalidRequest` for a file that cannot be read or a domain
    ///   that is not the manifest's or a file over `limit` links.
    func run(_ text: String, api: AdminAPI, limit: Int = .max) async throws(LinkServiceError) -> ImportReport {
        // A misspelled domain would refuse every line alike: say it once instead.
        if let domain { _ = try api.rules.linkDomain(domain) }
        var (lines, ignored) = try lines(of: text, limit: limit, shortLinkDomains: api.rules.linkDomains)
        if format == .fdl {
            // A link is kept without an image it may not show, and the image counted.
            for index in lines.indices {
                guard case .success(var input) = lines[index].input,
                    input.leaveOutForeignImage(api.rules, allowingImageHosts: true)
                else {
                    continue
                }
                lines[index].input = .success(input)
                ignored[Self.offDomainImage, default: 0] += 1
            }
        }
        // A line without a code gets its link's own, so a file run again finds the links it made.
        let key = SigningKey.derive("import codes", from: api.store.sharedSecret)
        var madeCodes: Set<Int> = []
        for index in lines.indices {
            guard case .success(var input) = lines[index].input, input.code == nil,
                let link = try? wouldCreate(input, code: CodeGenerator.make(), api: api)
            else { continue }  // A line that makes no link is refused by the create, with its reason.
            input.code = LinkIdentity(of: link, domains: api.domains).code(signedWith: key)
            lines[index].input = .success(input)
            madeCodes.insert(index)
        }
        let outcomes = await BulkCreation(api: api, importing: true).create(lines.map(\.input))
        var refusals: [ImportReport.Refusal] = []
        var alreadyImported = 0
        for (index, (line, outcome)) in zip(lines, outcomes).enumerated() {
            guard let error = outcome.error else { continue }
            var (status, code, message) = (outcome.status, error.code, error.message)
            // A service that is stopping asks the database nothing more: the import can be run again.
            if code == .codeTaken, !Task.isCancelled, case .success(let input) = line.input {
                switch await stored(input, api: api) {
                case .same:
                    alreadyImported += 1
                    continue
                case .different(let taken) where madeCodes.contains(index):
                    // The line named no code: "choose another" is no advice it can follow.
                    message =
                        "This line was imported before as '\(taken)', and that link has been changed since; "
                        + "change it back, or delete it to import the line again."
                case .different:
                    break
                case .unknown:
                    let unavailable = LinkServiceError(
                        .unavailable,
                        "The database did not answer whether this line was imported before; run the import again."
                    )
                    (status, code, message) = (unavailable.statusCode, unavailable.code, unavailable.message)
                }
            }
            refusals.append(ImportReport.Refusal(line: line.number, status: status, code: code, message: message))
        }
        return ImportReport(
            imported: lines.count - refusals.count - alreadyImported,
            alreadyImported: alreadyImported,
            refused: refusals.count,
            refusals: refusals,
            ignoredParameters: ignored
        )
    }

    /// The link a create of `input` under `code` would store, stored or not.
    private func wouldCreate(_ input: LinkInput, code: String, api: AdminAPI) throws(LinkServiceError) -> ShortLink {
        try api.rules.newLink(from: input, code: code, now: api.now(), acceptingPastExpiry: true)
    }

    /// What is stored under the code of a line whose code is taken.
    private enum Stored {
        /// The link the line describes: the line was imported before.
        case same
        /// Another link, or one changed since (its code).
        case different(String)
        /// The database did not answer.
        case unknown
    }

    private func stored(_ input: LinkInput, api: AdminAPI) async -> Stored {
        guard let text = input.code, let code = try? LinkRules.normalizedCode(text),
            let wanted = try? wouldCreate(input, code: code, api: api)
        else { return .different(input.code ?? "") }
        do {
            guard let stored = try await api.store.link(code: code) else { return .different(code) }
            let same = LinkIdentity(of: stored, domains: api.domains) == LinkIdentity(of: wanted, domains: api.domains)
            return same ? .same : .different(code)
        } catch {
            return .unknown
        }
    }

    /// `POST /api/links/import?format=fdl|csv|jsonl[&domain=…]`: the body is the file; 200 with the report.
    static func handle(_ request: Request, api: AdminAPI) async throws -> Response {
        let query = request.uri.queryParameters
        guard let text = query["format"].map(String.init), let format = Format(rawValue: text.lowercased()) else {
            let given = query["format"].map { "; '\($0)' is not one" } ?? ""
            throw LinkServiceError(.invalidRequest, "'format' is fdl, csv or jsonl: say which the body is\(given).")
        }
        guard api.importTurn.take() else {
            throw LinkServiceError(
                .rateLimited,
                "Another import is under way on this instance; send this one when it has finished.",
                retryAfter: 10
            )
        }
        defer { api.importTurn.giveBack() }
        // `curl -F file=@links.txt` sends a form around the file: its boundaries and headers would
        // be read as lines, and refused one by one, beside the file's own.
        if let type = request.headers[.contentType], type.lowercased().hasPrefix("multipart/") {
            throw LinkServiceError(
                .invalidRequest,
                "The body is a multipart form ('\(type.prefix(40))'); send the file itself as the body "
                    + "(curl --data-binary @links.txt)."
            )
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxRequestBytes)
        } catch is NIOTooManyBytesError {
            throw LinkServiceError(
                .tooLarge,
                "The file is over \(maxRequestBytes / 1024 / 1024) MB; split it, or run 'waypoint-links import'."
            )
        }
        guard buffer.readableBytes > 0 else {
            throw LinkServiceError(.invalidRequest, "The body is empty; send the file to import as the body.")
        }
        guard let body = String(validating: buffer.readableBytesView, as: UTF8.self) else {
            throw LinkServiceError(.invalidRequest, "The file is not UTF-8 text.")
        }
        let report = try await LinkImport(format: format, domain: query["domain"].map(String.init))
            .run(body, api: api, limit: maxRequestLinks)
        return JSONBody.response(report)
    }
}
