import Foundation

extension RouteParameters {
    /// The parameter as a plain file or resource name: one path component, safe to append to a
    /// directory or bundle path. Refuses what path traversal needs, after percent-decoding (so
    /// `%2e%2e%2f` is caught as `../`): `.` and `..`, `/` and `\`, NUL and other control
    /// characters (C0, DEL and C1), invisible and direction-changing characters (zero-width space,
    /// joiners, soft hyphen, BOM, bidi marks), and a leading `~`; in the name as given and once normalized
    /// (NFKC), so look-alikes (`．．`, `‥`, `a／b`, `～root`) are refused too, while `a․b` (which
    /// reads `a.b`) is a plain name.
    ///
    /// ```swift
    /// try match.parameters.resourceName("file")   // "chapter-1.pdf"
    /// ```
    public func resourceName(_ name: String) throws(WaypointError) -> String {
        guard let value = self[name]?.stringValue else {
            throw WaypointError(.missingParameter, names: [name], message: "The route has no parameter '\(name)'.")
        }
        func refuse(_ reason: String) -> WaypointError {
            WaypointError(
                .unsafeName,
                input: value,
                names: [name],
                message:
                    "The parameter '\(name)' ('\(value.debugDescription.dropFirst().dropLast())') is not a plain name: \(reason)."
            )
        }
        if let problem = Self.pathProblem(in: value) { throw refuse(problem) }
        // A file system or server that normalizes names (NFKC) reads `．．` (U+FF0E) as `..` and
        // `／` (U+FF0F) as `/`: the same rules hold for the normalized name.
        let normalized = value.precomposedStringWithCompatibilityMapping
        if normalized != value, let problem = Self.pathProblem(in: normalized) {
            throw refuse("once normalized (NFKC) it reads '\(normalized)', and \(problem)")
        }
        return value
    }

    /// Letters that draw nothing (Hangul fillers, the blank Braille pattern): a name of them looks empty.
    private static let blankLetters: Set<UInt32> = [0x115F, 0x1160, 0x2800, 0x3164, 0xFFA0]

    /// What makes `name` more than one plain path component, or `nil`.
    private static func pathProblem(in name: String) -> String? {
        if name == "." || name == ".." { return "it names a directory" }
        if name.hasPrefix("~") { return "it starts with '~'" }
        for scalar in name.unicodeScalars {
            switch scalar {
            case "/": return "it contains '/'"
            case "\\": return "it contains '\\'"
            // C0, DEL and C1 (U+0080–U+009F: U+0085 is a line break, U+009B a terminal escape).
            case _ where scalar.properties.generalCategory == .control: return "it contains a control character"
            // Invisible and direction-changing characters (zero-width space and joiners, soft
            // hyphen, BOM, bidi marks and overrides): a name shown to a person would read as
            // another name (`invoice‮fdp.exe` shows as `invoiceexe.pdf`).
            case _
            where scalar.properties.generalCategory == .format
                || scalar.properties.generalCategory == .lineSeparator
                || scalar.properties.generalCategory == .paragraphSeparator
                || Self.blankLetters.contains(scalar.value):
                let code = String(scalar.value, radix: 16, uppercase: true)
                return
                    "it contains an invisible or direction-changing character (U+\(String(repeating: "0", count: Swift.max(0, 4 - code.count)) + code))"
            default: continue
            }
        }
        return nil
    }
}
