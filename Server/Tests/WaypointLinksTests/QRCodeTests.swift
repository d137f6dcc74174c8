import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import WaypointLinks
@testable import WaypointQR

/// Issue 41: QR codes of short links. The encoder is Waypoint's own; an independent decoder
/// (zxing-cpp, through `Server/QRTests/decode.py`) reads back every image it draws when
/// `WAYPOINT_QR_DECODER` names a Python with zxing-cpp, CairoSVG and Pillow (`.ci/run` sets one up).
@Suite("QR codes")
struct QRCodeTests {
    @Test("The version table: capacities and block layout at level M")
    func versions() {
        #expect(QRVersion(1).dataCodewords == 16)
        #expect(QRVersion(1).byteCapacity == 14)
        #expect(QRVersion(10).byteCapacity == 213)
        #expect(QRVersion(40).byteCapacity == 2331)
        #expect(QRVersion(40).totalCodewords == 3706)
        #expect(QRVersion(5).dataCodewords == 86)
        #expect(QRVersion(2).alignmentPositions == [6, 18])
        #expect(QRVersion(22).alignmentPositions == [6, 26, 50, 74, 98])
        #expect(QRVersion(32).alignmentPositions == [6, 34, 60, 86, 112, 138])
        // Every version's codewords fill its modules, less 0 to 7 remainder bits.
        for version in QRVersion.all {
            #expect((0...7).contains(version.rawDataModules - version.totalCodewords * 8), "\(version.number)")
        }
    }

    @Test("Reed–Solomon: the standard's worked example, HELLO WORLD at 1-M")
    func reedSolomon() {
        let data: [UInt8] = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
        #expect(ReedSolomon(degree: 10).remainder(of: data) == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23])
    }

    @Test("The penalty rules score runs, blocks, finder shapes and imbalance as the standard counts them")
    func penalties() {
        #expect(QRMatrix.runPenalty([true, true, true, true, false]) == 0)
        #expect(QRMatrix.runPenalty([true, true, true, true, true, false]) == 3)
        #expect(QRMatrix.runPenalty(Array(repeating: false, count: 7)) == 5)
        let finder: [Bool] = [true, false, true, true, true, false, true]
        #expect(QRMatrix.finderPenalty([false, false, false, false] + finder) == 40)
        #expect(QRMatrix.finderPenalty(finder + [false, false, false, false, true]) == 40)
        #expect(QRMatrix.finderPenalty(finder + [false, false, false, true]) == 0)
    }

    @Test("The smallest version that holds the text is used; past 2,331 bytes is a typed error")
    func versionChoice() throws {
        #expect(try QRCode(encoding: String(repeating: "a", count: 14)).version == 1)
        #expect(try QRCode(encoding: String(repeating: "a", count: 15)).version == 2)
        #expect(try QRCode(encoding: "https://links.example.com/spring").version == 3)
        #expect(try QRCode(encoding: String(repeating: "a", count: 2331)).version == 40)
        #expect(throws: QRCodeError.tooLong(bytes: 2332, capacity: 2331)) {
            try QRCode(encoding: String(repeating: "a", count: 2332))
        }
    }

    @Test("A PNG is a 1-bit grayscale image of whole pixels a module, its chunks checksummed")
    func png() throws {
        let image = QRImage(try QRCode(encoding: "https://links.example.com/spring"), pixels: 300)
        #expect(image.scale == 8)  // 29 modules and 8 of quiet zone: 37 a side
        #expect(image.pngSide == 296)
        let png = try image.png()
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(Array(png[12..<16]) == Array("IHDR".utf8))
        #expect(Array(png[16..<24]) == [0, 0, 1, 40, 0, 0, 1, 40])  // 296 × 296
        #expect(CRC32.checksum(Array("IEND".utf8)) == 0xAE42_6082)
        #expect(Array(png.suffix(8)) == [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
    }

    /// Texts that land on every version, at its capacity; non-ASCII bytes included.
    static let texts: [String] = QRVersion.all.map { version in
        "ü" + String(repeating: "x", count: version.byteCapacity - 2)  // "ü" is two bytes
    }

    @Test("An independent decoder reads every version back, at level M, from PNG and SVG")
    func decodesEveryVersion() throws {
        guard let decoder = QRDecoder.fromEnvironment() else { return }
        let folder = Fixtures.scratchFolder.appendingPathComponent("qr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var expected: [String: (text: String, version: Int)] = [:]
        for (index, text) in Self.texts.enumerated() {
            let code = try QRCode(encoding: text)
            #expect(code.version == index + 1)
            let image = QRImage(code, pixels: (code.size + 8) * 4)
            let png = folder.appendingPathComponent("v\(code.version).png")
            try Data(try image.png()).write(to: png)
            expected[png.path] = (text, code.version)
            if code.version % 5 == 1 {
                let svg = folder.appendingPathComponent("v\(code.version).svg")
                try Data(image.svg.utf8).write(to: svg)
                expected[svg.path] = (text, code.version)
            }
        }
        let results = try decoder.decode(Array(expected.keys))
        #expect(results.count == expected.count)
        for result in results {
            let want = try #require(expected[result.file])
            #expect(result.error == nil, "\(result.file): \(result.error ?? "")")
            #expect(result.text == want.text, "\(result.file)")
            #expect(result.ecLevel == "M", "\(result.file)")
            #expect(result.version.map { Int($0) } == want.version, "\(result.file)")
        }
    }

    @Test("GET /api/links/{code}/qr draws the link's URL as PNG and SVG; bad parameters are 400")
    func endpoint() async throws {
        let fixture = try await ServiceFixture.make()
        #expect(try await fixture.store.insert(ClaimTests.link))
        let folder = Fixtures.scratchFolder.appendingPathComponent("qr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let images = [
            ("", "image/png", "default.png"), ("?format=svg&size=300", "image/svg+xml", "spring.svg"),
            ("?format=PNG&size=64", "image/png", "small.png"), ("?size=4096", "image/png", "large.png"),
        ]
        let files = images.map { folder.appendingPathComponent($0.2).path }
        try await Application(router: fixture.service.router()).test(.router) { client in
            let auth: HTTPFields = [.authorization: "Bearer \(fixture.token)"]
            for (query, type, file) in images {
                try await client.execute(uri: "/api/links/spring/qr\(query)", method: .get, headers: auth) { response in
                    #expect(response.status == .ok, "\(query)")
                    #expect(response.headers[.contentType] == type)
                    #expect(response.headers[.cacheControl] == "no-store")
                    let path = folder.appendingPathComponent(file).path
                    try Data(response.body.readableBytesView).write(to: URL(fileURLWithPath: path))
                }
            }
            for query in ["?format=gif", "?size=63", "?size=4097", "?size=big"] {
                try await client.execute(uri: "/api/links/spring/qr\(query)", method: .get, headers: auth) { response in
                    #expect(response.status == .badRequest, "\(query)")
                    #expect(String(buffer: response.body).contains(#""code":"invalidRequest""#))
                }
            }
            try await client.execute(uri: "/api/links/none/qr", method: .get, headers: auth) {
                #expect($0.status == .notFound)
            }
            try await client.execute(uri: "/api/links/spring/qr", method: .get) { #expect($0.status == .unauthorized) }
            // The admin page's copy needs its session.
            try await client.execute(uri: "/admin/links/spring/qr", method: .get) {
                #expect($0.status == .unauthorized)
            }
        }
        let svg = try String(contentsOfFile: folder.appendingPathComponent("spring.svg").path, encoding: .utf8)
        #expect(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300""#))
        if let decoder = QRDecoder.fromEnvironment() {
            let results = try decoder.decode(files)
            #expect(results.count == files.count)
            for result in results {
                #expect(result.text == "https://links.example.com/spring", "\(result.file): \(result.error ?? "")")
            }
            #expect(results.first { $0.file.hasSuffix("large.png") }?.size == 4070)  // 37 modules × 110 px
        }
        await fixture.store.close()
    }
}

/// `Server/QRTests/decode.py` run by the Python `WAYPOINT_QR_DECODER` names.
struct QRDecoder {
    let python: String

    struct Result: Decodable {
        let file: String
        let text: String?
        let ecLevel: String?
        let version: String?
        let size: Int?
        let error: String?
    }

    /// Nil when the variable is unset: the decoding tests then check only what Swift can. CI must
    /// name one, or the images would go unread.
    static func fromEnvironment() -> QRDecoder? {
        let environment = ProcessInfo.processInfo.environment
        #expect(
            environment["WAYPOINT_QR_DECODER"] != nil || environment["CI"] == nil,
            "CI sets WAYPOINT_QR_DECODER (Server/Scripts/qr-decoder.sh) so that every QR image is decoded"
        )
        return environment["WAYPOINT_QR_DECODER"].map(QRDecoder.init)
    }

    func decode(_ files: [String]) throws -> [Result] {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("QRTests/decode.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path] + files
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            try JSONDecoder().decode(Result.self, from: Data($0.utf8))
        }
    }
}
