import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Prometheus
import Testing
@testable import WaypointLinks

/// swift-metrics takes one backend per process: every test that reads metrics shares this one.
/// Other tests running in the same process count into it too, so tests compare before and after.
enum SharedMetrics {
    static let registry = ServiceMetrics.bootstrapPrometheus()

    /// The value of the sample named exactly `series` (name and labels), 0 when absent.
    static func value(_ series: String, in text: String) -> Double {
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1)) ?? .nan
        }
        return 0
    }

    static func value(_ series: String) -> Double {
        value(series, in: String(decoding: registry.emitToBuffer(), as: UTF8.self))
    }
}

@Suite("Metrics")
struct MetricsTests {
    @Test("GET /metrics prints requests by route pattern, visits by client and outcome, and refusals")
    func prometheus() async throws {
        let registry = SharedMetrics.registry
        let fixture = try await ServiceFixture.make {
            $0.metrics = registry
            $0.unknownCodeLimit = RateLimit(perMinute: 6, burst: 1)
        }
        #expect(try await fixture.store.insert(VisitTests.link))
        let androidStore = #"waypoint_links_visits_total{client="android",outcome="store"}"#
        let refusals = #"waypoint_links_rate_limited_total{limit="unknown codes"}"#
        let tooLong = #"waypoint_links_visit_queries_left_behind_total{reason="tooLong"}"#
        let before = (SharedMetrics.value(androidStore), SharedMetrics.value(refusals), SharedMetrics.value(tooLong))
        try await Application(router: fixture.service.router()).test(.router) { client in
            var headers = HTTPFields()
            headers[.userAgent] = Fixtures.android
            try await client.execute(uri: "/spring", method: .get, headers: headers) { #expect($0.status == .found) }
            // A query too long to pass on still gets the visitor to the store, and is counted.
            let long = "/spring?utm_source=" + String(repeating: "x", count: 600)
            try await client.execute(uri: long, method: .get, headers: headers) { #expect($0.status == .found) }
            // A HEAD request is no visit: it is neither counted as one nor as a query left behind.
            try await client.execute(uri: long, method: .head, headers: headers) { #expect($0.status == .found) }
            try await client.execute(uri: "/nothing", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/nothing", method: .get) { #expect($0.status == .tooManyRequests) }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
                let text = String(buffer: response.body)
                #expect(SharedMetrics.value(androidStore, in: text) == before.0 + 2)
                #expect(SharedMetrics.value(refusals, in: text) == before.1 + 1)
                #expect(SharedMetrics.value(tooLong, in: text) == before.2 + 1)
                // Requests by the route's pattern: the code a visitor asked for is never a label.
                #expect(text.contains(#"http_route="/{code}""#))
                #expect(!text.contains("spring\""))
                #expect(text.contains("http_server_request_duration_bucket"))
            }
        }
        try await fixture.service.clicks.flush()
        #expect(SharedMetrics.value("waypoint_links_clicks_unwritten") == 0)
        await fixture.store.close()
    }

    @Test("The limits' refusals, click write failures and queries left behind are printed from the start, at 0")
    func seriesFromTheStart() async throws {
        // A registry of its own: the shared one has the other tests' counts.
        let registry = PrometheusCollectorRegistry()
        let fixture = try await ServiceFixture.make { $0.metrics = registry }
        let text = String(decoding: registry.emitToBuffer(), as: UTF8.self)
        var series = QueryPassthrough.LeftBehind.allCases.map {
            #"waypoint_links_visit_queries_left_behind_total{reason="\#($0.rawValue)"}"#
        }
        series += ["admin requests", "unknown codes", "claims", "claim tokens"].map {
            #"waypoint_links_rate_limited_total{limit="\#($0)"}"#
        }
        series.append("waypoint_links_click_write_failures_total")
        for name in series {
            #expect(text.split(separator: "\n").contains { $0 == name + " 0" }, "\(name) is not printed at 0")
        }
        await fixture.store.close()
    }

    @Test("Without a registry there is no /metrics route, and /metrics is no short link's code")
    func none() async throws {
        let fixture = try await ServiceFixture.make()
        try await Application(router: fixture.service.router()).test(.router) { client in
            try await client.execute(uri: "/metrics", method: .get) { #expect($0.status == .notFound) }
        }
        await fixture.store.close()
    }
}
