import Foundation
import Hummingbird
import NIOCore

/// Many links at once: `POST /api/links/bulk`, and the links an import brings. Each item is created
/// exactly as `POST /api/links` would create it, or refused with the error that request would get.
/// One bad item never spoils the others, and none is stored half-way: each link is one insert.
///
/// ```swift
/// let outcomes = await BulkCreation(api: api).create([.success(LinkInput(deepLink: "readapp://books/1"))])
/// outcomes[0].status  // 201, with outcomes[0].link
/// ```
struct BulkCreation: Sendable {
    let api: AdminAPI
    /// An import brings links as they were: one that has expired comes in expired, rather than
    /// refused for an expiry in the past.
    var importing = false

    /// Items one request may hold.
    static let maxItems = 1_000
    /// A thousand links of a few kilobytes each.
    static let maxRequestBytes = 4 * 1024 * 1024

    /// What became of one item: `201` and the link, or the status and error a single create would
    /// have answered.
    struct Outcome: Encodable, Sendable {
        let status: Int
        let link: AdminAPI.LinkBody?
        let error: ErrorBody.Detail?

        var isCreated: Bool { link != nil }
    }

    /// One item of the request's array: the link it asks for, or why it cannot be read.
    struct Item: Decodable {
        let input: Result<LinkInput, LinkServiceError>

        init(from decoder: any Decoder) {
            do {
                input = .success(try LinkInput(from: decoder))
            } catch let error as LinkServiceError {
                input = .failure(error)
            } catch let error as DecodingError {
                input = .failure(LinkServiceError(.invalidRequest, JSONBody.describe(error, subject: "the link")))
            } catch {
                input = .failure(LinkServiceError(.invalidRequest, "The link could not be read: \(error)"))
            }
        }
    }

    struct Answer: Encodable {
        let created: Int
        let refused: Int
        let results: [Outcome]
    }

    /// Creates each link in order; an item that cannot be created is reported in its place.
    func create(_ items: [Result<LinkInput, LinkServiceError>]) async -> [Outcome] {
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(items.count)
        for item in items {
            do {
                let link = try await api.create(try item.get(), acceptingPastExpiry: importing)
                outcomes.append(Outcome(status: 201, link: api.body(link), error: nil))
            } catch let error as LinkServiceError {
                outcomes.append(Self.refused(error))
            } catch {
                // The database failed for this item: it is not stored, and may be sent again.
                outcomes.append(
                    Self.refused(
                        LinkServiceError(
                            .unavailable,
                            "The database did not answer; this link was not stored: \(error)"
                        )
                    )
                )
            }
        }
        return outcomes
    }

    static func refused(_ error: LinkServiceError) -> Outcome {
        Outcome(status: error.statusCode, link: nil, error: ErrorBody(error).error)
    }

    /// `POST /api/links/bulk`: a JSON array of up to 1,000 links; 200 with a result for each, in order.
    func handle(_ request: Request) async throws -> Response {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: Self.maxRequestBytes)
        } catch is NIOTooManyBytesError {
            throw LinkServiceError(
                .tooLarge,
                "The body is over \(Self.maxRequestBytes / 1024 / 1024) MB; send the links in several requests."
            )
        }
        let items: [Item]
        do {
            items = try JSONBody.decoder.decode([Item].self, from: Data(buffer.readableBytesView))
        } catch {
            throw LinkServiceError(
                .invalidRequest,
                #"The body should be a JSON array of links, such as [{"deepLink": "readapp://books/1"}]."#
            )
        }
        guard items.count <= Self.maxItems else {
            throw LinkServiceError(
                .invalidRequest,
                "The body has \(items.count) links; one request takes up to \(Self.maxItems). Send the rest in another."
            )
        }
        let outcomes = await create(items.map(\.input))
        let created = outcomes.filter(\.isCreated).count
        return JSONBody.response(Answer(created: created, refused: outcomes.count - created, results: outcomes))
    }
}
