import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WaypointLinks

/// Issue 41: many links in one request, each created or refused on its own.
@Suite("Bulk creation")
struct BulkTests {
    static func json(_ buffer: ByteBuffer) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))) as? [String: Any] ?? [:]
    }

    @Test("Each item is created or refused with its own error, in order; a bad one spoils nothing")
    func mixed() async throws {
        let fixture = try await ServiceFixture.make()
        #expect(try await fixture.store.insert(ClaimTests.link))  // "spring" is taken
        let body = """
            [
              {"code": "one", "deepLink": "readapp://books/1"},
              {"code": "spring", "deepLink": "readapp://books/2"},
              {"deepLink": "readapp://nowhere"},
              {"code": "two", "deepLink": "readapp://books/2", "fallbacks": {"web": "http://plain.example.com/"}},
              {"code": "three", "deepLink": "readapp://books/3", "colour": "red"},
              "not a link",
              {"code": "four", "deepLink": 4},
              {"deepLink": "readapp://books/5", "preview": {"title": "Five"}}
            ]
            """
        try await Application(router: fixture.service.router()).test(.router) { client in
            let headers: HTTPFields = [.authorization: "Bearer \(fixture.token)", .contentType: "application/json"]
            try await client.execute(
                uri: "/api/links/bulk",
                method: .post,
                headers: headers,
                body: ByteBuffer(string: body)
            ) { response in
                #expect(response.status == .ok)
                let answer = Self.json(response.body)
                #expect(answer["created"] as? Int == 2)
                #expect(answer["refused"] as? Int == 6)
                let results = try #require(answer["results"] as? [[String: Any]])
                #expect(results.map { $0["status"] as? Int } == [201, 409, 422, 422, 400, 400, 400, 201])
                let errors = results.map { ($0["error"] as? [String: Any])?["code"] as? String }
                #expect(
                    errors == [
                        nil, "codeTaken", "deepLinkUnresolved", "urlNotAllowed", "invalidRequest", "invalidRequest",
                        "invalidRequest", nil,
                    ]
                )
                let messages = results.map { ($0["error"] as? [String: Any])?["message"] as? String ?? "" }
                #expect(messages[4].contains("Unknown field 'colour'"), "\(messages[4])")
                #expect(!messages[4].contains("Index"))
                #expect(messages[6] == "'deepLink' should be a string.", "\(messages[6])")
                #expect((results[0]["link"] as? [String: Any])?["url"] as? String == "https://links.example.com/one")
                #expect(
                    ((results[7]["link"] as? [String: Any])?["preview"] as? [String: Any])?["title"] as? String
                        == "Five"
                )
            }
        }
        #expect(try await fixture.store.link(code: "one") != nil)
        #expect(try await fixture.store.link(code: "two") == nil)
        #expect(try await fixture.store.link(code: "spring")?.deepLink == "readapp://books/42")
        #expect(try await fixture.store.links(after: nil, limit: 20, containing: nil).count == 3)
        await fixture.store.close()
    }

    @Test("A body that is not an array, or holds over 1,000 links, is refused whole with a 400")
    func refusedWhole() async throws {
        let fixture = try await ServiceFixture.make()
        let many =
            "[" + Array(repeating: #"{"deepLink": "readapp://books/1"}"#, count: 1_001).joined(separator: ",") + "]"
        try await Application(router: fixture.service.router()).test(.router) { client in
            let headers: HTTPFields = [.authorization: "Bearer \(fixture.token)", .contentType: "application/json"]
            for (body, phrase) in [
                (#"{"deepLink": "readapp://books/1"}"#, "should be a JSON array"), ("[", "should be a JSON array"),
                (many, "up to 1000"),
            ] {
                try await client.execute(
                    uri: "/api/links/bulk",
                    method: .post,
                    headers: headers,
                    body: ByteBuffer(string: body)
                ) { response in
                    #expect(response.status == .badRequest)
                    #expect(String(buffer: response.body).contains(phrase), "\(String(buffer: response.body))")
                }
            }
            try await client.execute(uri: "/api/links/bulk", method: .post, body: ByteBuffer(string: "[]")) {
                #expect($0.status == .unauthorized)
            }
        }
        #expect(try await fixture.store.links(after: nil, limit: 5, containing: nil).isEmpty)
        await fixture.store.close()
    }
}
