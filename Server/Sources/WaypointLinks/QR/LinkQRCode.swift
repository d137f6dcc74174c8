import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import WaypointQR

/// A short link's QR code as the API (`GET /api/links/{code}/qr`) and the admin page serve it: the
/// link's `url`, as PNG or SVG, about `size` pixels a side.
///
/// ```swift
/// let request = try LinkQRCode(query: request.uri.queryParameters)  // ?format=svg&size=300
/// try request.response(for: "https://links.example.com/spring", code: "spring")  // 200, image/svg+xml
/// ```
struct LinkQRCode: Sendable {
    enum Format: String, Sendable, CaseIterable {
        case png, svg

        var contentType: String {
            switch self {
            case .png: "image/png"
            case .svg: "image/svg+xml"
            }
        }
    }

    var format: Format
    /// Pixels a side asked for; a PNG is the largest whole number of pixels a module that fits.
    var size: Int

    static let sizes = 64...4096
    static let defaultSize = 512

    init(format: Format = .png, size: Int = Self.defaultSize) {
        self.format = format
        self.size = size
    }

    /// Reads `format` (`png`, the default, or `svg`) and `size` (64 to 4096, 512 by default).
    init(query: Parameters) throws(LinkServiceError) {
        self.init()
        if let text = query["format"] {
            guard let format = Format(rawValue: String(text).lowercased()) else {
                throw LinkServiceError(.invalidRequest, "'format' is png or svg, not '\(text)'.")
            }
            self.format = format
        }
        if let text = query["size"] {
            guard let size = Int(String(text)), Self.sizes.contains(size) else {
                throw LinkServiceError(
                    .invalidRequest,
                    "'size' is a whole number of pixels from \(Self.sizes.lowerBound) to \(Self.sizes.upperBound), "
                        + "not '\(text)'."
                )
            }
            self.size = size
        }
    }

    /// The image of `url`, named after `code` for a download.
    func response(for url: String, code: String) throws(LinkServiceError) -> Response {
        let image: QRImage
        do {
            image = QRImage(try QRCode(encoding: url), pixels: size)
        } catch {
            // A short link's URL is a few dozen bytes; 2,331 is far past any domain and code.
            throw LinkServiceError(.urlNotAllowed, "The link's URL cannot be a QR code: \(error.description)")
        }
        let body: ByteBuffer
        switch format {
        case .svg:
            body = ByteBuffer(string: image.svg)
        case .png:
            do {
                body = ByteBuffer(bytes: try image.png())
            } catch {
                throw LinkServiceError(.unavailable, "The PNG could not be made: \(error.message)")
            }
        }
        let headers: HTTPFields = [
            .contentType: format.contentType,
            .contentDisposition: "inline; filename=\"\(code)-qr.\(format.rawValue)\"",
            // A link deleted and made again with the same code may be on another domain.
            .cacheControl: "no-store",
            .xContentTypeOptions: "nosniff",
            // An SVG opened on its own is a document: it may run nothing and load nothing.
            .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'",
        ]
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}
