/// Parses the text of a ``RoutePattern``: prefix, optional groups, then segments.
struct RoutePatternParser {
    let text: String
    private let characters: [Character]

    init(text: String) {
        self.text = text
        self.characters = Array(text)
    }

    struct Parsed {
        var scheme: String?
        var host: DomainPattern?
        var expansions: [[PatternSegment]]
    }

    /// A character of the path with its offset in the whole pattern, so errors can point at it.
    private typealias Located = (character: Character, offset: Int)

    /// Optional groups form a tree; each node is a character or a group of nodes.
    private indirect enum Node {
        case character(Located)
        case group([Node], offset: Int)
    }

    static let maximumExpansions = 256

    /// Characters that belong to the query, the fragment or nowhere in a link. A `switch`, not
    /// `"?# \\".contains(_:)`: searching a string literal walks its grapheme clusters every call.
    private static func isForbidden(_ character: Character) -> Bool {
        switch character {
        case "?", "#", " ", "\\": true
        default: false
        }
    }

    private static func isSchemePunctuation(_ character: Character) -> Bool {
        switch character {
        case "+", "-", ".": true
        default: false
        }
    }

    mutating func parse() throws(RoutePatternError) -> Parsed {
        var parsed = Parsed(expansions: [])
        let pathStart = try parsePrefix(into: &parsed)
        var index = pathStart
        let nodes = try parseNodes(&index, depth: 0)
        var expansions: [[PatternSegment]] = []
        var seen: Set<[PatternSegment]> = []
        // The same piece of text recurs in many expansions; parse it once (by its offsets).
        var parsedPieces: [[Int]: PatternSegment] = [:]
        for located in try expand(nodes) {
            let segments = try parseSegments(located, memo: &parsedPieces)
            if !seen.insert(segments).inserted {
                throw error(
                    .duplicateExpansion,
                    at: pathStart,
                    "its optional groups expand to '\(render(segments))' twice"
                )
            }
            expansions.append(segments)
        }
        parsed.expansions = expansions
        return parsed
    }

    private func error(_ code: RoutePatternError.Code, at offset: Int, _ reason: String) -> RoutePatternError {
        RoutePatternError(code, pattern: text, offset: offset, reason)
    }

    private func render(_ segments: [PatternSegment]) -> String {
        "/" + segments.map(\.description).joined(separator: "/")
    }

    /// Reads `scheme://` and, for `http(s)`, the host; returns where the path begins.
    private func parsePrefix(into parsed: inout Parsed) throws(RoutePatternError) -> Int {
        guard let first = characters.first else { return 0 }
        if first == "/" || first == "(" { return 0 }
        var index = 0
        while index < characters.count, characters[index].isASCII,
            characters[index].isLetter
                || (index > 0 && (characters[index].isNumber || Self.isSchemePunctuation(characters[index])))
        {
            index += 1
        }
        guard index > 0, index + 3 <= characters.count, String(characters[index..<(index + 3)]) == "://"
        else {
            throw error(.invalidStart, at: 0, "a pattern starts with '/' or with a scheme such as 'myapp://'")
        }
        let scheme = String(characters[0..<index]).lowercased()
        parsed.scheme = scheme
        index += 3
        guard scheme == "http" || scheme == "https" else {
            // For a custom scheme what stands in the host position is the first path segment.
            return index
        }
        let hostStart = index
        while index < characters.count, characters[index] != "/", characters[index] != "(" { index += 1 }
        let host = String(characters[hostStart..<index])
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        let validHost =
            !host.isEmpty
            && labels.enumerated().allSatisfy { position, label in
                (position == 0 && label == "*" && labels.count > 2)
                    || (!label.isEmpty && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" })
            }
        guard validHost else {
            throw error(
                .invalidHost,
                at: hostStart,
                "'\(host)' is not a host name (use 'example.com' or '*.example.com')"
            )
        }
        parsed.host = DomainPattern(host)
        return index
    }

    private func parseNodes(_ index: inout Int, depth: Int) throws(RoutePatternError) -> [Node] {
        var nodes: [Node] = []
        while index < characters.count {
            let character = characters[index]
            if character == "(" {
                let open = index
                index += 1
                let inner = try parseNodes(&index, depth: depth + 1)
                guard index < characters.count, characters[index] == ")" else {
                    throw error(.unbalancedParenthesis, at: open, "'(' is never closed")
                }
                guard !inner.isEmpty else { throw error(.emptyGroup, at: open, "'()' has nothing inside") }
                nodes.append(.group(inner, offset: open))
                index += 1
            } else if character == ")" {
                guard depth > 0 else { throw error(.unbalancedParenthesis, at: index, "')' has no matching '('") }
                return nodes
            } else if Self.isForbidden(character) {
                throw error(
                    .invalidCharacter,
                    at: index,
                    "'\(character)' has no place in a pattern: patterns match the path; read the query in the handler"
                )
            } else {
                nodes.append(.character((character, index)))
                index += 1
            }
        }
        return nodes
    }

    /// Every combination of the optional groups being present or absent; an inner group only
    /// with its outer group.
    private func expand(_ nodes: [Node]) throws(RoutePatternError) -> [[Located]] {
        var results: [[Located]] = [[]]
        for node in nodes {
            switch node {
            case .character(let located):
                for index in results.indices { results[index].append(located) }
            case .group(let inner, let offset):
                let innerExpansions = try expand(inner)
                var next: [[Located]] = []
                for prefix in results {
                    next.append(prefix)
                    for suffix in innerExpansions { next.append(prefix + suffix) }
                }
                guard next.count <= Self.maximumExpansions else {
                    throw error(
                        .tooManyExpansions,
                        at: offset,
                        "optional groups expand to more than \(Self.maximumExpansions) shapes"
                    )
                }
                results = next
            }
        }
        return results
    }

    private func parseSegments(
        _ located: [Located],
        memo: inout [[Int]: PatternSegment]
    ) throws(RoutePatternError) -> [PatternSegment] {
        var pieces: [[Located]] = []
        var current: [Located] = []
        for item in located {
            if item.character == "/" {
                if !current.isEmpty { pieces.append(current) }
                current = []
            } else {
                current.append(item)
            }
        }
        if !current.isEmpty { pieces.append(current) }

        var segments: [PatternSegment] = []
        var names: Set<String> = []
        for (position, piece) in pieces.enumerated() {
            let key = piece.map(\.offset)
            let segment: PatternSegment
            if let known = memo[key] {
                segment = known
            } else {
                segment = try parseSegment(piece)
                memo[key] = segment
            }
            if case .catchAll = segment, position != pieces.count - 1 {
                throw error(.catchAllNotLast, at: piece[0].offset, "'**' must be the last segment")
            }
            if case .parameter(let name, _) = segment, !names.insert(name).inserted {
                throw error(.duplicateParameter, at: piece[0].offset, "the parameter name '\(name)' is used twice")
            }
            segments.append(segment)
        }
        return segments
    }

    private func parseSegment(_ piece: [Located]) throws(RoutePatternError) -> PatternSegment {
        let text = String(piece.map(\.character))
        let offset = piece[0].offset
        if text == "*" { return .wildcard }
        if text == "**" { return .catchAll }
        if text.first == "{" {
            guard text.last == "}", text.dropFirst().dropLast().allSatisfy({ $0 != "{" && $0 != "}" }) else {
                throw error(
                    .invalidParameter,
                    at: offset,
                    "'\(text)' must be a whole segment of the form {name} or {name:type}"
                )
            }
            let inner = text.dropFirst().dropLast()
            let parts = inner.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            try validateName(name, at: offset)
            guard parts.count == 2 else { return .parameter(name: name, type: .string) }
            guard let type = ParameterType(rawValue: String(parts[1])) else {
                let known = ParameterType.allCases.map(\.rawValue).joined(separator: ", ")
                throw error(.unknownType, at: offset, "unknown parameter type '\(parts[1])' (known: \(known))")
            }
            return .parameter(name: name, type: type)
        }
        if text.first == ":" {
            let name = String(text.dropFirst())
            try validateName(name, at: offset)
            return .parameter(name: name, type: .string)
        }
        // Bytes, not characters: a brace that a combining mark joins to stays a brace, and
        // searching bytes skips grapheme breaking, which dominated parsing in profiles.
        if text.utf8.contains(UInt8(ascii: "{")) || text.utf8.contains(UInt8(ascii: "}")) {
            throw error(
                .invalidParameter,
                at: offset,
                "'\(text)' mixes text and a parameter; a parameter fills its whole segment"
            )
        }
        return .literal(try decodeLiteral(text, at: offset))
    }

    private func validateName(_ name: String, at offset: Int) throws(RoutePatternError) {
        let valid =
            !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            && !(name.first?.isNumber ?? true)
        guard valid else {
            throw error(
                .invalidParameter,
                at: offset,
                "'\(name)' is not a parameter name (letters, digits and '_', not starting with a digit)"
            )
        }
    }

    private func decodeLiteral(_ text: String, at offset: Int) throws(RoutePatternError) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                    let low = hexValue(bytes[index + 2])
                else {
                    throw error(.invalidPercentEscape, at: offset, "'\(text)' has a '%' not followed by two hex digits")
                }
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        guard let string = String(validating: decoded, as: UTF8.self) else {
            throw error(.invalidPercentEscape, at: offset, "'\(text)' decodes to invalid UTF-8")
        }
        return string
    }
}
