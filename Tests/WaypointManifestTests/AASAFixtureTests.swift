import Foundation
import Testing

@testable import WaypointManifest

/// Association files written in the shapes real sites serve, each with URLs and the verdict
/// decided by hand from the rule its expectation cites (Fixtures/AASA/expectations.json).
@Suite("apple-app-site-association files as sites write them")
struct AASAFixtureTests {
    struct Expectation: Decodable, CustomTestStringConvertible {
        struct Problem: Decodable {
            var severity: String
            var path: String?
            var contains: String?
        }
        struct URLVerdict: Decodable {
            var url: String
            var opens: Bool
            var appID: String?
            var location: String?
            var excluded: Bool?
            var reason: String?
        }
        var file: String
        var rule: String
        var services: [String]?
        var valid: Bool
        var problems: [Problem]
        var urls: [URLVerdict]

        var testDescription: String { file }
    }

    static let folder = ToolRunner.root.appendingPathComponent("Tests/WaypointManifestTests/Fixtures/AASA")

    static let expectations: [Expectation] = {
        let url = folder.appendingPathComponent("expectations.json")
        guard let data = try? Data(contentsOf: url),
            let cases = try? JSONDecoder().decode([Expectation].self, from: data)
        else { return [] }
        return cases
    }()

    @Test("There are at least 30 fixtures, and every file in the folder has an expectation")
    func coverage() throws {
        #expect(Self.expectations.count >= 30)
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
            .filter { $0.hasSuffix(".json") && $0 != "expectations.json" }
        #expect(Set(files) == Set(Self.expectations.map(\.file)))
    }

    @Test("Services, validity, problems with their JSON paths, and every URL's verdict", arguments: expectations)
    func fixture(_ expected: Expectation) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(expected.file))
        let (document, problems) = AASADocument.parse(data)
        let rule = Comment(rawValue: "\(expected.file) — \(expected.rule)")
        #expect(document?.services.map(\.rawValue) ?? [] == expected.services ?? [], rule)
        let valid = document != nil && !problems.contains { $0.severity == .error }
        #expect(valid == expected.valid, "\(expected.file): \(problems)")
        #expect(problems.count == expected.problems.count, "\(expected.file): \(problems)")
        for problem in expected.problems {
            let found = problems.contains { actual in
                actual.severity.rawValue == problem.severity && actual.path == problem.path
                    && (problem.contains.map { actual.message.contains($0) } ?? true)
            }
            #expect(found, "\(expected.file): no \(problem.severity) at \(problem.path ?? "the file") in \(problems)")
        }
        let checker = document.map(AASAChecker.init)
        for url in expected.urls {
            let verdict = try #require(checker, "\(expected.file) has no document to check \(url.url)").check(url.url)
            let context = Comment(rawValue: "\(expected.file): \(url.url) → \(verdict) — \(expected.rule)")
            #expect(verdict.opensApp == url.opens, context)
            #expect(verdict.excluded == (url.excluded ?? false), context)
            if let appID = url.appID { #expect(verdict.appID == appID, context) }
            if let location = url.location { #expect(verdict.location == location, context) }
            if let reason = url.reason { #expect(verdict.reason.contains(reason), context) }
        }
    }
}
