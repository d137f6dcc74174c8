import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// JSON in and out of the admin API, with one encoder and one decoder: dates as ISO 8601, keys
/// sorted so equal values give equal bytes.
enum JSONBody {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            guard let date = internetDate(try container.decode(String.self)) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an RFC 3339 date")
            }
            return date
        }
        return decoder
    }()

    /// An RFC 3339 date and time, as any client writes it: with or without fractional seconds
    /// (JavaScript's `toISOString()` adds milliseconds), `Z` or an offset, in either case.
    ///
    /// ```swift
    /// JSONBody.internetDate("2027-01-01T00:00:00.000Z")  // 2027-01-01 00:00:00 +0000
    /// JSONBody.internetDate("2027-01-01")                // nil: a time is needed
    /// JSONBody.internetDate("9999999-01-01T00:00:00Z")   // nil: RFC 3339 years have four digits
    /// ```
    static func internetDate(_ text: String) -> Date? {
        let text = text.uppercased()
        // The formatter reads more digits of year and wraps them round (to the year -4712).
        let year = text.utf8.prefix(5)
        guard year.count == 5, year.prefix(4).allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            year.last == UInt8(ascii: "-")
        else { return nil }
        // Formatters are made per call: dates are decoded only in admin requests, a few a second.
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    /// The most bytes a request body may have; a link is well under 4 KB.
    static let maxRequestBytes = 16 * 1024

    static func response(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    )
        -> Response
    {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        // Encoding a ShortLink or a page of them cannot fail: strings, numbers and finite dates only.
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Reads a JSON body of at most ``maxRequestBytes``.
    ///
    /// - Throws: ``LinkServiceError`` `tooLarge` or `invalidRequest`, naming what was wrong.
    static func decode<Value: Decodable>(_ type: Value.Type, from request: Request) async throws -> Value {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxRequestBytes)
        } catch is NIOTooManyBytesError {
            throw LinkServiceError(.tooLarge, "The body is over \(maxRequestBytes) bytes; a link needs far fewer.")
        }
        do {
            return try decoder.decode(Value.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw LinkServiceError(.invalidRequest, describe(error))
        }
        // A LinkServiceError from a type's own decoding (an unknown field) passes as it is.
    }

    /// A decoding error as a person reads it: where in `subject` (the body, or one link of a bulk
    /// request), and what was wrong. Positions in an array are left out of the path: a bulk answer
    /// says which item by its place.
    static func describe(_ error: DecodingError, subject: String = "the body") -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.filter { $0.intValue == nil }.map(\.stringValue).filter { !$0.isEmpty }
            return keys.isEmpty ? subject : "'" + keys.joined(separator: ".") + "'"
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context)) should be \(describeType(type))."
        case .valueNotFound(let type, let context):
            return "\(path(context)) should be \(describeType(type)), not null."
        case .keyNotFound(let key, _):
            return "\(subject.prefix(1).uppercased() + subject.dropFirst()) needs '\(key.stringValue)'."
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty, context.underlyingError != nil || context.debugDescription.contains("JSON") {
                return
                    "\(subject.prefix(1).uppercased() + subject.dropFirst()) is not valid JSON: \(context.debugDescription)"
            }
            return "\(path(context)) \(context.debugDescription)"
        @unknown default:
            return "The body could not be read: \(error)"
        }
    }

    private static func describeType(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Date.Type: "a date such as \"2027-01-01T00:00:00Z\""
        case is Int.Type: "a whole number"
        case is Bool.Type: "true or false"
        default: "an object"
        }
    }
}

/// The body of every error the service answers with.
struct ErrorBody: Encodable {
    struct Detail: Encodable {
        let code: LinkServiceError.Code
        let message: String
    }

    let error: Detail

    init(_ error: LinkServiceError) { self.error = Detail(code: error.code, message: error.message) }
}

extension LinkServiceError: HTTPResponseError {
    public var status: HTTPResponse.Status { HTTPResponse.Status(code: statusCode) }

    public var headers: HTTPFields { [:] }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = HTTPFields()
        if code == .unauthorized { headers[.wwwAuthenticate] = "Bearer realm=\"waypoint-links\"" }
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        if let allow { headers[.allow] = allow }
        return JSONBody.response(ErrorBody(self), status: status, headers: headers)
    }
}
