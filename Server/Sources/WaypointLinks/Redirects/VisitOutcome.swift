/// Where a visit to a short link ended: what click counts are kept by.
public enum VisitOutcome: String, Sendable, Hashable, CaseIterable, Codable {
    /// The page that opens the app or offers the App Store (iPhone and iPad).
    case landingPage
    /// Sent to the Play Store.
    case store
    /// Sent to the web fallback.
    case webFallback
    /// A preview page for a crawler.
    case preview
    /// The app opened for the short link and asked for its deep link (`GET /api/resolve/{code}`).
    case app
    /// The code names no link: not counted (anyone can ask for any code), only answered.
    case notFound
    /// The link has expired.
    case expired
}
