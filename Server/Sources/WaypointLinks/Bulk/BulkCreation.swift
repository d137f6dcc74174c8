import Foundation
import Hummingbird
import Logging
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

    /// The request's array, counted before any item is decoded: an item refused costs a result
    /// and a message, and a body of two million `0`s should not make two million of them.
    struct Items: Decodable {
        let list: [Item]

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            if let count = container.count, count > BulkCreation.maxItems { throw TooManyItems(count: count) }
            var list: [Item] = []
            while !container.isAtEnd { list.append(try container.decode(Item.self)) }
            self.list = list
        }
    }

    struct TooManyItems: Error {
        let count: Int
    }

    struct Answer: Encodable {
        let created: Int
        let refused: Int
        let results: [Outcome]
    }

    /// Creates each link in order; an item that cannot be created is reported in its place. Once
    /// the task is cancelled (the service is stopping), the items left are refused unread, so a
    /// stop waits for one insert, not for the rest of a 50,000-link import.
    func create(_ items: [Result<LinkInput, LinkServiceError>]) async -> [Outcome] {
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(items.count)
        for item in items {
            if Task.isCancelled {
                outcomes.append(
                    Self.refused(
                        LinkServiceError(
                            .unavailable,
                            "The service stopped before this link was created; send it again (an import can be "
                                + "run again whole)."
                        )
                    )
                )
                continue
            }
            do {
                let link = try await api.create(try item.get(), acceptingPastExpiry: importing)
                outcomes.append(Outcome(status: 201, link: api.body(link), error: nil))
            } catch let error as LinkServiceError {
                outcomes.append(Self.refused(error))
            } catch {
                // The database failed for this item. A connection lost after the commit leaves it
                // stored, so the answer cannot promise either way; the detail goes to the log, as
                // ErrorMiddleware keeps a database's own words out of every answer.
                api.logger.error("bulk item: store failed", metadata: ["error": "\(error)"])
                outcomes.append(
                    Self.refused(
                        LinkServiceError(
                            .unavailable,
                            "The database did not answer, so this link may or may not be stored: "
                                + "look it up (GET /api/links) before sending it again."
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
        let items: Items
        do {
            items = try JSONBody.decoder.decode(Items.self, from: Data(buffer.readableBytesView))
        } catch let tooMany as TooManyItems {
            throw LinkServiceError(
                .invalidRequest,
                "The body has \(tooMany.count) links; one request takes up to \(Self.maxItems). Send the rest in another."
            )
        } catch {
            throw LinkServiceError(
                .invalidRequest,
                #"The body should be a JSON array of links, such as [{"deepLink": "readapp://books/1"}]."#
            )
        }
        let outcomes = await create(items.list.map(\.input))
        let created = outcomes.filter(\.isCreated).count
        return JSONBody.response(Answer(created: created, refused: outcomes.count - created, results: outcomes))
    }
}
