import Foundation
import Testing
import Waypoint
import WaypointLinksClient

/// The app side of deferred links, without a service: what is taken from the pasteboard, and what
/// an unreachable service does to this launch and the next.
@Suite("Claiming a deferred link from the app")
struct ClaimingProviderTests {
    let service = LinkServiceClient(
        domain: "Links.Example.com",
        // Nothing listens on port 9 of loopback: the service is "offline" at once.
        serviceURL: URL(string: "http://127.0.0.1:9")
    )

    /// Counts reads, so a test can tell a source that was only checked from one that was read.
    final class CountingSource: ClaimURLSource, @unchecked Sendable {
        let text: String?
        private let lock = NSLock()
        private var reads = 0
        init(_ text: String?) { self.text = text }
        var readCount: Int { lock.withLock { reads } }
        func mayHoldClaimURL() async -> Bool { text != nil }
        func claimText() async -> String? {
            lock.withLock { reads += 1 }
            return text
        }
    }

    final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [DeferredLinkReport] = []
        var all: [DeferredLinkReport] { lock.withLock { items } }
        func add(_ report: DeferredLinkReport) { lock.withLock { items.append(report) } }
    }

    @Test("Only this service's claim URLs give a token")
    func claimURLs() {
        let token = "AQEAAAAAbm9uY2Vub25jZQ"
        #expect(service.token(inClaimURL: "https://links.example.com/c/\(token)") == token)
        #expect(service.token(inClaimURL: "  https://LINKS.example.com/c/\(token)\n") == token)
        for other in [
            "http://links.example.com/c/\(token)", "https://evil.example.net/c/\(token)",
            "https://links.example.com/\(token)", "https://links.example.com/c/\(token)/more",
            "https://links.example.com/c/", "https://links.example.com/c/a%20b", "a shopping list", "",
            // Hostile input round 3: what a URL parser reads as this host or path, and is not.
            "https://links.example.com:8443/c/\(token)", "https://links.example.com:443/c/\(token)",
            "https://evil@links.example.com/c/\(token)", "https://user:pw@links.example.com/c/\(token)",
            "https://links%2Eexample.com/c/\(token)", "https://links.example.com/c%2F\(token)",
            "https://links.example.com/c/\(token)?next=x", "https://links.example.com/c/\(token)#x",
            "https://links.example.com.evil.net/c/\(token)", "https://links.example.com/./c/\(token)",
            "https://links.example.com//c/\(token)", "https://links.example.com/C/\(token)",
            // Unicode lowers the Kelvin sign (U+212A) to `k`; a host name has no such letter.
            "https://lin\u{212A}s.example.com/c/\(token)", "https://LIN\u{212A}S.EXAMPLE.COM/c/\(token)",
        ] {
            #expect(service.token(inClaimURL: other) == nil, "\(other)")
        }
        // The service's longest tokens (a long link's deep link, a short link's passed query) are
        // read; past the bound, nothing is.
        let long = String(repeating: "A", count: 4_096)
        #expect(service.token(inClaimURL: "https://links.example.com/c/\(long)") == long)
        #expect(service.token(inClaimURL: "https://links.example.com/c/\(long)A") == nil)
    }

    @Test("A domain written as its URL, or in capitals, is the host: its claim URLs give a token")
    func domainAsURL() {
        let token = "AQEAAAAAbm9uY2Vub25jZQ"
        for written in ["https://links.example.com/", " HTTPS://Links.Example.com ", "http://links.example.com//"] {
            let client = LinkServiceClient(domain: written)
            #expect(client.domain == "links.example.com", "\(written)")
            #expect(client.serviceURL.absoluteString == "https://links.example.com", "\(written)")
            #expect(client.token(inClaimURL: "https://links.example.com/c/\(token)") == token, "\(written)")
        }
    }

    @Test("A domain that is no domain is reported as such, before the pasteboard is read, and asked again")
    func domainThatIsNoDomain() async throws {
        let reports = Reports()
        let source = CountingSource("https://links example.com/c/AQEAAAAAbm9uY2Vub25jZQ")
        let provider = ClaimingDeferredLinkProvider(
            service: LinkServiceClient(domain: "links example.com"),
            source: source,
            report: reports.add
        )
        await #expect(throws: ClaimError.self) { try await provider.deferredLink() }
        #expect(source.readCount == 0)
        #expect(
            reports.all == [
                .unavailable(
                    "The link service's domain 'links example.com' is not a host name; write the short-link "
                        + "domain alone, as links.example.com."
                )
            ]
        )
    }

    @Test("With nothing on the pasteboard, nothing is read and the answer is a definite none")
    func nothingToClaim() async throws {
        let source = CountingSource(nil)
        let reports = Reports()
        let provider = ClaimingDeferredLinkProvider(service: service, source: source, report: reports.add)
        #expect(try await provider.deferredLink() == nil)
        #expect(source.readCount == 0)
        #expect(reports.all == [.nothingToClaim])

        let other = ClaimingDeferredLinkProvider(
            service: service,
            source: PastedClaimURL("milk, eggs"),
            report: reports.add
        )
        #expect(try await other.deferredLink() == nil)
        #expect(reports.all.last == .notAClaimURL)
    }

    @Test("Offline, it retries within the launch, then fails so that the next launch asks again")
    func offline() async throws {
        let reports = Reports()
        let provider = ClaimingDeferredLinkProvider(
            service: service,
            source: PastedClaimURL("https://links.example.com/c/AQEAAAAAbm9uY2Vub25jZQ"),
            retries: 2,
            retryDelay: 0.01,
            report: reports.add
        )
        await #expect(throws: ClaimError.self) { try await provider.deferredLink() }
        guard case .unavailable(let message) = reports.all.last else {
            Issue.record("reported \(reports.all)")
            return
        }
        #expect(message.contains("could not be reached"))

        // Through the core: a failure this launch, still unsettled for the next one.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("claims-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let record = FileDeferredLinkRecord(url: folder.appendingPathComponent("deferred.json"))
        let intake = LinkIntake(policy: LinkPolicy(schemes: ["readapp"]))
        let result = await intake.deferredLink(from: provider, record: record)
        #expect(result?.error?.code == .providerFailed)
        #expect(record.load() == .unsettled(attempts: 1))
    }

    @Test("Retries that are negative, or may hold a first launch over a minute, are refused where made")
    func retryBounds() async throws {
        func problem(_ retries: Int, _ delay: TimeInterval) -> WaypointError? {
            do {
                _ = try ClaimingDeferredLinkProvider(
                    services: [service],
                    source: PastedClaimURL(nil),
                    retries: retries,
                    retryDelay: delay
                )
                return nil
            } catch { return error }
        }
        // Each try may take 15 s: the default's worst case is 3 × 15 + 2 + 4 = 51 s.
        for (retries, delay) in [(2, 2.0), (0, 0), (2, 5), (3, 0), (1, 10)] {
            #expect(problem(retries, delay) == nil, "\(retries) after \(delay) s")
        }
        for (retries, delay) in [(3, 0.1), (2, 6), (1000, 60), (1, 1e19), (Int.max, 1)] {
            let error = problem(retries, delay)
            #expect(error?.code == .invalidConfiguration, "\(retries) after \(delay) s")
            let message = error?.message ?? ""
            #expect(message.contains("over the 60 s a first launch waits"), "\(retries) after \(delay) s")
        }
        for (retries, delay) in [(-1, 2.0), (2, -1), (2, .nan), (2, .infinity)] {
            let error = problem(retries, delay)
            #expect(error?.code == .invalidConfiguration, "\(retries) after \(delay) s")
            #expect(error?.message.contains("both 0 or more") == true, "\(retries) after \(delay) s")
        }

        // The initializer that cannot throw fits them instead, so an app that asked for more still
        // claims: as many tries as fit in the minute, and 0 for what is no count or no delay.
        func fitted(_ retries: Int, _ delay: TimeInterval) -> (Int, TimeInterval) {
            let provider = ClaimingDeferredLinkProvider(
                service: service,
                source: PastedClaimURL(nil),
                retries: retries,
                retryDelay: delay
            )
            return (provider.retries, provider.retryDelay)
        }
        #expect(fitted(2, 2) == (2, 2))
        #expect(fitted(3, 2) == (2, 2))  // 4 × 15 s + 2 + 4 + 8 s is over the minute
        #expect(fitted(3, 0) == (3, 0))
        #expect(fitted(Int.max, 1) == (2, 1))
        #expect(fitted(-1, -1) == (0, 0))
        #expect(fitted(1, .nan) == (1, 0))
        #expect(fitted(1, .infinity) == (1, 0))
        #expect(fitted(1, 1e19) == (0, 1e19))
        let reports = Reports()
        let provider = ClaimingDeferredLinkProvider(
            service: service,
            source: PastedClaimURL(nil),
            retries: 9,
            report: reports.add
        )
        #expect(try await provider.deferredLink() == nil)
        #expect(reports.all == [.nothingToClaim])
    }
}
