import CompressNIO
import NIOCore

/// A ``QRCode`` drawn as an image: black modules on white, with the four-module quiet zone the
/// standard asks for around it.
///
/// ```swift
/// let code = try QRCode(encoding: "https://links.example.com/spring")
/// QRImage(code, pixels: 512).svg   // "<svg xmlns=… width=\"512\" …"
/// try QRImage(code, pixels: 512).png()  // a 1-bit grayscale PNG, 512×512 or a little less
/// ```
public struct QRImage: Sendable {
    public let code: QRCode
    /// The width and height asked for, in pixels.
    public let pixels: Int

    /// Modules of light margin on each side.
    public static let quietZone = 4

    public init(_ code: QRCode, pixels: Int) {
        self.code = code
        self.pixels = pixels
    }

    /// Modules a side, quiet zone included.
    var modulesWide: Int { code.size + 2 * Self.quietZone }

    /// Scalable: one unit a module, dark modules as one path, drawn `pixels` wide.
    public var svg: String {
        var path = ""
        for y in 0..<code.size {
            for x in 0..<code.size where code[x, y] {
                path += "M\(x + Self.quietZone) \(y + Self.quietZone)h1v1h-1z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(pixels)" height="\(pixels)" \
            viewBox="0 0 \(modulesWide) \(modulesWide)" shape-rendering="crispEdges">\
            <rect width="\(modulesWide)" height="\(modulesWide)" fill="#fff"/>\
            <path d="\(path)" fill="#000"/></svg>

            """
    }

    /// Pixels a module: as many whole pixels as fit in `pixels`, at least one, so modules stay
    /// square and sharp; the image is that times the modules wide.
    public var scale: Int { max(1, pixels / modulesWide) }

    /// The image's width and height in pixels.
    public var pngSide: Int { scale * modulesWide }

    /// A PNG: 1-bit grayscale, each row filtered with "none", compressed with zlib.
    public func png() throws(QRImageError) -> [UInt8] {
        let side = pngSide
        let rowBytes = (side + 7) / 8
        // One row of pixels a row of modules, drawn once and repeated `scale` times.
        var raw = ByteBuffer()
        raw.reserveCapacity((rowBytes + 1) * side)
        for moduleY in 0..<modulesWide {
            let y = moduleY - Self.quietZone
            var row = [UInt8](repeating: 0xFF, count: rowBytes)  // 1 is white in grayscale
            if (0..<code.size).contains(y) {
                for x in 0..<code.size where code[x, y] {
                    let first = (x + Self.quietZone) * scale
                    for pixelX in first..<(first + scale) { row[pixelX / 8] &= ~(0x80 >> UInt8(pixelX % 8)) }
                }
            }
            for _ in 0..<scale {
                raw.writeInteger(UInt8(0))  // filter: none
                raw.writeBytes(row)
            }
        }
        let compressed: ByteBuffer
        do {
            compressed = try raw.compress(with: .zlib())
        } catch {
            throw QRImageError(message: "zlib could not compress the image: \(error)")
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header += Self.bigEndian(UInt32(side)) + Self.bigEndian(UInt32(side))
        header += [1, 0, 0, 0, 0]  // bit depth 1, grayscale, deflate, adaptive filtering, no interlace
        Self.appendChunk("IHDR", header, to: &png)
        Self.appendChunk("IDAT", Array(compressed.readableBytesView), to: &png)
        Self.appendChunk("IEND", [], to: &png)
        return png
    }

    static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        png += bigEndian(UInt32(data.count))
        png += typeBytes
        png += data
        png += bigEndian(CRC32.checksum(typeBytes + data))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

/// The PNG could not be written.
public struct QRImageError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// The CRC-32 (polynomial 0xEDB88320, as zlib and PNG use) every PNG chunk ends with. CompressNIO
/// does not expose zlib's own.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
