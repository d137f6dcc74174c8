import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Every link, out: `GET /api/links/export?format=jsonl|csv` and `waypoint-links export`. Links are
/// read a page at a time in code order and written as they are read, so memory stays the same
/// whether there are ten links or a million. An import of the output into an empty database gives
/// the same links (their creation times aside: an import creates).
///
/// ```swift
/// try await LinkExport(api: api, format: .jsonl).write { chunk in print(chunk, terminator: "") }
/// // {"code":"spring","deepLink":"readapp://books/42",…,"url":"https://links.example.com/spring"}
/// ```
public struct LinkExport: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        /// One JSON object a line, as `GET /api/links/{code}` answers.
        case jsonl
        /// ``LinkCSV``, with a header row.
        case csv

        var contentType: String {
            switch self {
            case .jsonl: "application/jsonl; charset=utf-8"
            case .csv: "text/csv; charset=utf-8"
            }
        }
    }

    let api: AdminAPI
    let format: Format

    /// Links read and written at a time.
    static let pageSize = 500

    /// Writes the export a chunk (a page of links) at a time; a failure stops it where it is.
    func write(_ chunk: (String) async throws -> Void) async throws {
        if format == .csv { try await chunk(try LinkCSV.text([LinkCSV.columns])) }
        var after: String?
        while true {
            let page = try await api.store.links(after: after, limit: Self.pageSize, containing: nil)
            guard let last = page.last else { return }
            try await chunk(try text(page))
            after = last.code
        }
    }

    private func text(_ links: [ShortLink]) throws -> String {
        switch format {
        case .jsonl:
            return try links.map { link in
                String(decoding: try JSONBody.encoder.encode(api.body(link)), as: UTF8.self) + "\n"
            }.joined()
        case .csv:
            return try LinkCSV.text(
                links.map { link in
                    LinkCSV.row(link, url: api.domains.url(of: link), domain: api.domains.domain(of: link))
                }
            )
        }
    }

    /// `GET /api/links/export?format=jsonl|csv`: streamed, `Content-Disposition` naming a file.
    static func handle(_ request: Request, api: AdminAPI) throws -> Response {
        let text = request.uri.queryParameters["format"].map(String.init) ?? Format.jsonl.rawValue
        guard let format = Format(rawValue: text.lowercased()) else {
            throw LinkServiceError(.invalidRequest, "'format' is jsonl or csv, not '\(text)'.")
        }
        let export = LinkExport(api: api, format: format)
        let headers: HTTPFields = [
            .contentType: format.contentType, .cacheControl: "no-store",
            .contentDisposition: "attachment; filename=\"waypoint-links.\(format.rawValue)\"",
        ]
        return Response(
            status: .ok,
            headers: headers,
            body: ResponseBody { writer in
                try await export.write { chunk in try await writer.write(ByteBuffer(string: chunk)) }
                try await writer.finish(nil)
            }
        )
    }
}
