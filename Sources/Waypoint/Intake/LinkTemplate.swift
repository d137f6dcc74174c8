/// A link with placeholders filled from a payload: `/messages/{data.messageId}`,
/// `myapp://books/{book_id}?tab={tab}`.
///
/// Each value is percent-encoded for where it stands (a path segment, or a query value after `?`),
/// so a value can never add segments or query items of its own.
///
/// ```swift
/// let template = LinkTemplate("/messages/{data.messageId}")
/// try template.fill(from: ["data": ["messageId": "1"]])          // "/messages/1"
/// try LinkTemplate("/search?q={q}").fill(from: ["q": "a&b c"])   // "/search?q=a%26b%20c"
/// ```
public struct LinkTemplate: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The template as written.
    public let text: String

    /// A template as written: `LinkTemplate("/messages/{data.messageId}")`.
    public init(_ text: String) { self.text = text }
    public init(stringLiteral value: String) { self.init(value) }
    public init(from decoder: any Decoder) throws { self.init(try decoder.singleValueContainer().decode(String.self)) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    public var description: String { text }

    /// The key paths of the placeholders, in order.
    public var placeholders: [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// What is wrong with the template's braces, or `nil`: each `{` is closed by a `}` before the
    /// next `{`, and names a value. A brace left open would otherwise reach the link, and the link,
    /// not the template, would be blamed.
    package var problem: String? {
        var open = false
        var isEmpty = true
        for character in text {
            switch character {
            case "{":
                if open { return "a '{' opens a placeholder inside another" }
                (open, isEmpty) = (true, true)
            case "}":
                if !open { return "a '}' closes no placeholder" }
                if isEmpty { return "'{}' names no value" }
                open = false
            default:
                isEmpty = false
            }
        }
        return open ? "a '{' is never closed" : nil
    }

    /// The template's brace mistake as the error that fill and ``LinkIntake/check()`` throw.
    package func check() throws(WaypointError) {
        guard let problem else { return }
        throw WaypointError(
            .invalidConfiguration,
            input: text,
            message: "The link template '\(text)': \(problem); write each placeholder as {key.path}."
        )
    }

    /// Whether `payload` has a value for every placeholder, so ``fill(from:)`` finds none missing.
    func isFilled(by payload: PayloadValue) -> Bool {
        placeholders.allSatisfy { Self.value(at: $0, in: payload) != nil }
    }

    /// A placeholder's value: scalar, not empty; `nil` counts as missing.
    private static func value(at keyPath: String, in payload: PayloadValue) -> String? {
        guard let value = payload[keyPath]?.text, !value.isEmpty else { return nil }
        return value
    }

    /// Fills every placeholder from `payload`; a missing or non-scalar value is an ``WaypointError``,
    /// and so is a template whose braces do not pair (``WaypointError/Code/invalidConfiguration``).
    public func fill(from payload: PayloadValue) throws(WaypointError) -> String {
        try check()
        var output = ""
        var inQuery = false
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let literal = rest[..<open]
            if literal.contains("?") { inQuery = true }
            output += literal
            let keyPath = String(rest[rest.index(after: open)..<close])
            guard let value = Self.value(at: keyPath, in: payload) else {
                throw WaypointError(
                    .missingValue,
                    input: payload.description,
                    message:
                        "The link template '\(text)' needs a value at '\(keyPath)', which the payload does not have."
                )
            }
            output += percentEncode(value, allowed: inQuery ? .queryComponent : .pathSegment)
            rest = rest[rest.index(after: close)...]
        }
        return output + rest
    }
}
