import Metrics
import Prometheus

/// The service's metrics, printed at `GET /metrics` in Prometheus' text format. Beside
/// Hummingbird's own, through swift-metrics' process-wide backend (`hb_requests`,
/// `hb_request_errors`, `http_server_request_duration` in seconds and `http_server_active_requests`,
/// by route pattern, method and status — never by code), the service counts into its configured
/// registry:
///
/// - `waypoint_links_visits_total{client, outcome}`: every counted visit, as the click counts keep it;
/// - `waypoint_links_long_link_visits_total{client, outcome}`: visits of long Dynamic Links
///   (``LongLink``), which have no code to count them by (`notFound` for one not followed);
/// - `waypoint_links_clicks_unwritten`: clicks counted and not yet in the database;
/// - `waypoint_links_click_write_failures_total`: batches the database did not take (retried);
/// - `waypoint_links_rate_limited_total{limit}`: requests refused with 429, by limit;
/// - `waypoint_links_visit_queries_left_behind_total{reason}`: visits whose query was not passed on whole
///   (`tooLong`, `notURLText`, `changesRoute`), each also logged at debug with its link's code.
///
/// All but the visits (of short and long links) are printed from start-up, at 0 for every label
/// value, so that `rate()` and `increase()` see the first count; a visit series appears at its
/// first visit.
///
/// ```swift
/// let registry = ServiceMetrics.bootstrapPrometheus()   // once, at start-up
/// LinkService.Configuration(metrics: registry)          // serves GET /metrics
/// ```
public struct ServiceMetrics: Sendable {
    /// Makes a new Prometheus registry the backend of swift-metrics for this process, and returns
    /// it for ``LinkService/Configuration/metrics``. swift-metrics takes one backend per process:
    /// call this once, before the service is made.
    public static func bootstrapPrometheus() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }

    /// Where the service's own metrics go: the registry `/metrics` prints, or nowhere. Not the
    /// process-wide backend, so two services in one process (the tests) count apart.
    let factory: any MetricsFactory

    init(registry: PrometheusCollectorRegistry?) {
        factory = registry.map { PrometheusMetricsFactory(registry: $0) } ?? NOOPMetricsHandler.instance
    }

    /// Counts nothing.
    static let none = ServiceMetrics(registry: nil)

    func visits(client: ClientKind, outcome: VisitOutcome) -> Metrics.Counter {
        Metrics.Counter(
            label: "waypoint_links_visits_total",
            dimensions: [("client", client.rawValue), ("outcome", outcome.rawValue)],
            factory: factory
        )
    }

    func longLinkVisits(client: ClientKind, outcome: VisitOutcome) -> Metrics.Counter {
        Metrics.Counter(
            label: "waypoint_links_long_link_visits_total",
            dimensions: [("client", client.rawValue), ("outcome", outcome.rawValue)],
            factory: factory
        )
    }

    func unwrittenClicks() -> Metrics.Gauge {
        Metrics.Gauge(label: "waypoint_links_clicks_unwritten", factory: factory)
    }

    func clickWriteFailures() -> Metrics.Counter {
        Metrics.Counter(label: "waypoint_links_click_write_failures_total", factory: factory)
    }

    func queryLeftBehind(_ reason: QueryPassthrough.LeftBehind) -> Metrics.Counter {
        Metrics.Counter(
            label: "waypoint_links_visit_queries_left_behind_total",
            dimensions: [("reason", reason.rawValue)],
            factory: factory
        )
    }

    func rateLimited(_ limit: String) -> Metrics.Counter {
        Metrics.Counter(label: "waypoint_links_rate_limited_total", dimensions: [("limit", limit)], factory: factory)
    }
}
