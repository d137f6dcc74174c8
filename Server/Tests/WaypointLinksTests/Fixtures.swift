import Foundation
import Testing
import WaypointLinks
import WaypointManifest

/// The manifest, store and service the tests share: a reading app on two domains and a wildcard,
/// with an Android app, over a SQLite file of its own in a temporary folder.
enum Fixtures {
    static let manifestText = """
        schemes: [readapp]
        domains: [read.example.com, links.example.com, "*.example.org"]
        appIDs: [ABCDE12345.com.example.reading]
        android:
          package: com.example.reading
          fingerprints: ["\(Array(repeating: "AB", count: 32).joined(separator: ":"))"]
        shortLinks:
          domain: links.example.com
        routes:
          - name: book
            pattern: /books/{book_id:int}
          - name: web.book
            pattern: https://read.example.com/b/{book_id:int}
          - name: account.delete
            pattern: /account/delete
            sources: [universalLink]
        """

    static func manifest() throws -> Manifest { try ManifestLoader.parse(manifestText) }

    /// A new, empty database file in a folder of its own, inside ``scratchFolder``.
    static func databasePath() -> String {
        let folder = scratchFolder.appendingPathComponent(UUID().uuidString)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("links.sqlite").path
    }

    /// One folder for every file this test process writes, removed when the process exits: a run
    /// makes some 500 databases, and left in the temporary directory they piled up run after run.
    static let scratchFolder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("waypoint-links-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Fixtures.scratchFolder) }
        return folder
    }()

    /// 2026-11-24T12:00:00Z: the tests' "now".
    static let now = Date(timeIntervalSince1970: 1_795_521_600)

    static let iPhone =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Mobile/15E148 Safari/604.1"
    static let android =
        "Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36"
    static let desktop =
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Safari/605.1.15"
    static let slack = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"
    static let iMessage =
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0"
}

/// A service over a new SQLite file, with a token, for one test.
struct ServiceFixture {
    let service: LinkService
    let store: SQLiteLinkStore
    let token: String
    /// The database file: another store opened on it stands for another instance.
    let path: String

    static func make(
        appStoreID: String? = "1234567890",
        configure: (inout LinkService.Configuration) -> Void = { _ in }
    ) async throws -> ServiceFixture {
        let path = Fixtures.databasePath()
        let store = try await SQLiteLinkStore.open(path: path)
        let token = APIToken.makeSecret()
        #expect(try await store.addToken(name: "tests", secretHash: APIToken.hash(token), createdAt: Fixtures.now))
        var configuration = LinkService.Configuration(appStoreID: appStoreID, now: { Fixtures.now })
        configure(&configuration)
        let service = try LinkService(manifest: try Fixtures.manifest(), store: store, configuration: configuration)
        return ServiceFixture(service: service, store: store, token: token, path: path)
    }
}
