import Foundation

/// A parameter refused as a file or resource name.
///
/// ```swift
/// try match.parameters.resourceName("file")   // "../secrets" → throws:
/// // "The parameter 'file' ('../secrets') is not a plain name: it contains '/'."
/// ```
public struct UnsafeParameterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The parameter's name.
    public let parameter: String
    /// The value as decoded from the link; `nil` when the route has no such parameter.
    public let value: String?
    /// What is wrong, for people.
    public let message: String

    public var description: String { message }
}

extension RouteParameters {
    /// The parameter as a plain file or resource name: one path component, safe to append to a
    /// directory or bundle path. Refuses what path traversal needs, after percent-decoding (so
    /// `%2e%2e%2f` is caught as `../`): `.` and `..`, `/` and `\`, NUL and other control
    /// characters (C0, DEL and C1), a leading `~`, and look-alikes that normalize (NFKC) to `.`,
    /// `/`, `\` or `~` (`．`, `／`, `‥`).
    ///
    /// ```swift
    /// try match.parameters.resourceName("file")   // "chapter-1.pdf"
    /// ```
    public func resourceName(_ name: String) throws(UnsafeParameterError) -> String {
        guard let value = self[name]?.stringValue else {
            throw UnsafeParameterError(parameter: name, value: nil, message: "The route has no parameter '\(name)'.")
        }
        func refuse(_ reason: String) -> UnsafeParameterError {
            UnsafeParameterError(
                parameter: name,
                value: value,
                message:
                    "The parameter '\(name)' ('\(value.debugDescription.dropFirst().dropLast())') is not a plain name: \(reason)."
            )
        }
        if value == "." || value == ".." { throw refuse("it names a directory") }
        if value.hasPrefix("~") { throw refuse("it starts with '~'") }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "/": throw refuse("it contains '/'")
            case "\\": throw refuse("it contains '\\'")
            case _ where scalar.properties.generalCategory == .control:
                // C0, DEL and C1 (U+0080–U+009F: U+0085 is a line break, U+009B a terminal escape).
                throw refuse("it contains a control character")
            case _ where !scalar.isASCII && Self.readsAsPathCharacter(scalar):
                let code = "U+" + String(scalar.value, radix: 16, uppercase: true)
                throw refuse("it contains \(code), which reads as '.', '/', '\\' or '~' once normalized (NFKC)")
            default: continue
            }
        }
        return value
    }

    /// Whether a non-ASCII character becomes one of `./\~` under compatibility normalization
    /// (NFKC): `．` (U+FF0E), `／` (U+FF0F), `‥` (U+2025) and their kind, which a file system or
    /// server that normalizes names reads as path syntax.
    private static func readsAsPathCharacter(_ scalar: Unicode.Scalar) -> Bool {
        String(scalar).precomposedStringWithCompatibilityMapping.unicodeScalars.contains {
            $0 == "." || $0 == "/" || $0 == "\\" || $0 == "~"
        }
    }
}
