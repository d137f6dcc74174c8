/// What an import did: how many links it created, and each line it could not, with why.
///
/// ```swift
/// report.imported    // 998
/// report.refusals[0] // line 17, 422 deepLinkUnresolved: "No route of the manifest matches …"
/// ```
public struct ImportReport: Sendable, Encodable {
    public struct Refusal: Sendable, Encodable, Hashable {
        /// The line of the file (for CSV, the row, counting the header as line 1).
        public let line: Int
        /// The status `POST /api/links` would have answered.
        public let status: Int
        public let code: LinkServiceError.Code
        public let message: String
    }

    public let imported: Int
    public let refused: Int
    public let refusals: [Refusal]
    /// Dynamic Link parameters with nothing to map to, and how many lines had each.
    public let ignoredParameters: [String: Int]

    /// `imported 998, refused 2`, then a line for each refusal and the parameters passed over.
    public var summary: String {
        var lines = ["imported \(imported), refused \(refused)"]
        lines += refusals.map { "line \($0.line): \($0.message) (\($0.code.rawValue))" }
        if !ignoredParameters.isEmpty {
            let names = ignoredParameters.sorted { $0.key < $1.key }.map {
                "\($0.key) (\($0.value) \($0.value == 1 ? "line" : "lines"))"
            }
            lines.append("parameters with nothing to map to, passed over: " + names.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}
