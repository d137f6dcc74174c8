/// What an import did: how many links it created, how many lines it had brought in before, and
/// each line it could not, with why.
///
/// ```swift
/// report.imported         // 998
/// report.alreadyImported  // 0; the same file run again: 998, and imported 0
/// report.refusals[0]      // line 17, 422 deepLinkUnresolved: "No route of the manifest matches …"
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
    /// Lines whose link is stored already, as the line describes it, under the line's code (or,
    /// for a line without one, the code made from its link: ``LinkIdentity``). Neither created
    /// again nor refused, so a file can be run again whole.
    public let alreadyImported: Int
    public let refused: Int
    public let refusals: [Refusal]
    /// Dynamic Link parameters with nothing to map to, and how many lines had each.
    public let ignoredParameters: [String: Int]

    /// `imported 998, refused 2` (with `already imported N` between them when a line was), then a
    /// line for each refusal and the parameters passed over.
    public var summary: String {
        let before = alreadyImported > 0 ? ", already imported \(alreadyImported)" : ""
        var lines = ["imported \(imported)\(before), refused \(refused)"]
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
