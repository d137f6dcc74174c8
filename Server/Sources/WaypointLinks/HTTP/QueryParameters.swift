import Hummingbird

extension Request {
    /// Refuses a query parameter the endpoint does not read: `?from=` on a link's analytics, or a
    /// search word on an endpoint without search, would otherwise be dropped without a word, and
    /// the answer taken for what was asked. Unknown body fields are refused the same way.
    ///
    /// ```swift
    /// try request.takingQuery(["after", "limit", "q"], at: "GET /api/links")  // `?from=x` throws invalidRequest
    /// ```
    func takingQuery(_ names: Set<String>, at endpoint: String) throws(LinkServiceError) {
        let unknown = Set(uri.queryParameters.map { String($0.key) }).subtracting(names).sorted()
        guard let first = unknown.first else { return }
        let takes = names.isEmpty ? "takes no query parameter" : "takes " + names.sorted().joined(separator: ", ")
        let more = unknown.count > 1 ? " (and \(unknown.count - 1) more)" : ""
        throw LinkServiceError(
            .invalidRequest,
            "Unknown query parameter '\(first.prefix(64))'\(more); \(endpoint) \(takes)."
        )
    }
}
