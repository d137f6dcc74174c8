/// Parses the text of a ``RoutePattern``: prefix, optional groups, then segments.
///
/// Works on UTF-8 bytes: every character with a meaning in a pattern (`/ ( ) { } : * % ? #`, space,
/// backslash) is ASCII, and a byte search neither walks grapheme clusters (which dominated parsing
/// in profiles) nor lets a combining mark hide a separator or a brace. Offsets in errors are
/// converted back to characters, only when an error is thrown.
struct RoutePatternParser {
    let text: String
    private let bytes: [UInt8]

    init(text: String) {
        self.text = text
        self.bytes = Array(text.utf8)
    }

    struct Parsed {
        var scheme: String?
        var host: DomainPattern?
        var expansions: [[PatternSegment]]
        /// The one shape as descriptors into the text, when every segment is its text as written.
        var compact: CompactShape?
    }

    /// Optional groups form a tree; each node is a run of path bytes or a group of nodes.
    private indirect enum Node {
        case run(Range<Int>)
        case group([Node], offset: Int)
    }

    static let maximumExpansions = 256

    private static let slash = UInt8(ascii: "/")
    private static let openGroup = UInt8(ascii: "(")
    private static let closeGroup = UInt8(ascii: ")")
    private static let openBrace = UInt8(ascii: "{")
    private static let closeBrace = UInt8(ascii: "}")
    private static let colon = UInt8(ascii: ":")
    private static let percent = UInt8(ascii: "%")
    private static let star = UInt8(ascii: "*")

    /// Bytes that belong to the query, the fragment or nowhere in a link.
    private static func isForbidden(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: " "), UInt8(ascii: "\\"): true
        default: false
        }
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isASCIIDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    mutating func parse() throws(WaypointError) -> Parsed {
        var parsed = Parsed(expansions: [])
        let pathStart = try parsePrefix(into: &parsed)
        let runs: [[Range<Int>]]
        if bytes[pathStart...].contains(where: { $0 == Self.openGroup || $0 == Self.closeGroup }) {
            var index = pathStart
            runs = try expand(try parseNodes(&index, depth: 0))
        } else {
            // No optional group (nearly every pattern): the path is one run, no tree to build.
            if let forbidden = bytes[pathStart...].firstIndex(where: Self.isForbidden) {
                throw forbiddenCharacter(at: forbidden)
            }
            runs = pathStart < bytes.count ? [[pathStart..<bytes.count]] : [[]]
        }
        let hasGroups = runs.count > 1
        var expansions: [[PatternSegment]] = []
        var seen: Set<[PatternSegment]> = []
        // With optional groups the same piece of text recurs in many expansions: parse it once (by
        // its byte ranges). Without them there is nothing to share or to compare.
        var memo: [[Int]: PatternSegment]? = hasGroups ? [:] : nil
        var descriptors: [UInt32]? = hasGroups ? nil : []
        for expansion in runs {
            let segments = try parseSegments(expansion, memo: &memo, descriptors: &descriptors)
            if hasGroups, !seen.insert(segments).inserted {
                throw error(
                    .duplicateExpansion,
                    at: pathStart,
                    "its optional groups expand to '\(render(segments))' twice"
                )
            }
            expansions.append(segments)
        }
        parsed.expansions = expansions
        parsed.compact = descriptors.map(CompactShape.init)
        return parsed
    }

    /// `offset` is in bytes; the error reports characters, as people count them.
    private func error(_ code: WaypointError.Code, at offset: Int, _ reason: String) -> WaypointError {
        let characterOffset = String(decoding: bytes[..<min(offset, bytes.count)], as: UTF8.self).count
        return WaypointError(
            code,
            input: text,
            offset: characterOffset,
            message: "Pattern '\(text)': \(reason) (offset \(characterOffset))."
        )
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    private func render(_ segments: [PatternSegment]) -> String {
        "/" + segments.map(\.description).joined(separator: "/")
    }

    /// Reads `scheme://` and, for `http(s)`, the host; returns where the path begins.
    private func parsePrefix(into parsed: inout Parsed) throws(WaypointError) -> Int {
        guard let first = bytes.first else { return 0 }
        if first == Self.slash || first == Self.openGroup { return 0 }
        var index = 0
        while index < bytes.count {
            // A link's scheme rule: a letter, then letters, digits, '+', '-' or '.'.
            let byte = bytes[index]
            guard index == 0 ? LinkScanner.isSchemeLetter(byte) : LinkScanner.isSchemeByte(byte) else { break }
            index += 1
        }
        guard index > 0, index + 3 <= bytes.count, bytes[index] == Self.colon, bytes[index + 1] == Self.slash,
            bytes[index + 2] == Self.slash
        else {
            throw error(.invalidStart, at: 0, "a pattern starts with '/' or with a scheme such as 'myapp://'")
        }
        let scheme = string(0..<index).lowercased()
        parsed.scheme = scheme
        index += 3
        guard scheme == "http" || scheme == "https" else {
            // For a custom scheme what stands in the host position is the first path segment.
            return index
        }
        let hostStart = index
        while index < bytes.count, bytes[index] != Self.slash, bytes[index] != Self.openGroup { index += 1 }
        let host = string(hostStart..<index)
        // The bytes a link's host may have (the link scanner's rule): a route host that no link can
        // have would never match, so it is refused here, where it is written. That is wider than a
        // domain the app can associate (`DomainPattern.problem(_:)` refuses `_`, which no
        // certificate carries): a link from a push or a web page needs no certificate. A wildcard
        // leaves at least two labels: a route claims what it matches, and `*.com` is every site.
        guard DomainPattern.isDomain(host, bytes: LinkScanner.isHostByte), !DomainPattern(host).isTopLevelWildcard
        else {
            throw error(
                .invalidHost,
                at: hostStart,
                "'\(host)' is not a host name (use 'example.com' or '*.example.com'; "
                    + "an international domain is written in punycode, xn--…)"
            )
        }
        parsed.host = DomainPattern(host)
        return index
    }

    private func parseNodes(_ index: inout Int, depth: Int) throws(WaypointError) -> [Node] {
        var nodes: [Node] = []
        var runStart = index
        func closeRun() {
            if runStart < index { nodes.append(.run(runStart..<index)) }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Self.openGroup {
                closeRun()
                let open = index
                index += 1
                let inner = try parseNodes(&index, depth: depth + 1)
                guard index < bytes.count, bytes[index] == Self.closeGroup else {
                    throw error(.unbalancedParenthesis, at: open, "'(' is never closed")
                }
                guard !inner.isEmpty else { throw error(.emptyGroup, at: open, "'()' has nothing inside") }
                nodes.append(.group(inner, offset: open))
                index += 1
                runStart = index
            } else if byte == Self.closeGroup {
                guard depth > 0 else { throw error(.unbalancedParenthesis, at: index, "')' has no matching '('") }
                closeRun()
                return nodes
            } else if Self.isForbidden(byte) {
                throw forbiddenCharacter(at: index)
            } else {
                index += 1
            }
        }
        closeRun()
        return nodes
    }

    private func forbiddenCharacter(at index: Int) -> WaypointError {
        let advice =
            switch bytes[index] {
            case UInt8(ascii: " "): "write a space in a path as %20"
            case UInt8(ascii: "\\"): "paths are separated by '/'"
            default: "patterns match the path; read the query in the handler"
            }
        return error(
            .invalidCharacter,
            at: index,
            "'\(Character(Unicode.Scalar(bytes[index])))' has no place in a pattern: \(advice)"
        )
    }

    /// Every combination of the optional groups being present or absent, each as the byte runs it
    /// is made of; an inner group only with its outer group.
    private func expand(_ nodes: [Node]) throws(WaypointError) -> [[Range<Int>]] {
        var results: [[Range<Int>]] = [[]]
        for node in nodes {
            switch node {
            case .run(let range):
                for index in results.indices { results[index].append(range) }
            case .group(let inner, let offset):
                let innerExpansions = try expand(inner)
                var next: [[Range<Int>]] = []
                next.reserveCapacity(results.count * (innerExpansions.count + 1))
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

    /// The bytes of one segment: one range, or several when the segment spans runs (`/a(b)`).
    private enum Piece {
        case contiguous(Range<Int>)
        case spanning([Range<Int>])

        var offset: Int {
            switch self {
            case .contiguous(let range): range.lowerBound
            case .spanning(let ranges): ranges.first?.lowerBound ?? 0
            }
        }

        var memoKey: [Int] {
            switch self {
            case .contiguous(let range): [range.lowerBound, range.upperBound]
            case .spanning(let ranges): ranges.flatMap { [$0.lowerBound, $0.upperBound] }
            }
        }
    }

    /// Splits one expansion's runs into segments at `/`; a segment may span runs (`/a(b)`).
    private func parseSegments(
        _ runs: [Range<Int>],
        memo: inout [[Int]: PatternSegment]?,
        descriptors: inout [UInt32]?
    ) throws(WaypointError) -> [PatternSegment] {
        var segments: [PatternSegment] = []
        var names: Set<String>?
        /// Parses one piece and adds its segment; `isLast` is asked only for `**`.
        func add(_ piece: Piece, isLast: () -> Bool) throws(WaypointError) {
            let segment: PatternSegment
            if memo == nil {
                segment = try parseSegment(piece)
            } else {
                let key = piece.memoKey
                if let known = memo?[key] {
                    segment = known
                } else {
                    segment = try parseSegment(piece)
                    memo?[key] = segment
                }
            }
            if case .catchAll = segment, !isLast() {
                throw error(.catchAllNotLast, at: piece.offset, "'**' must be the last segment")
            }
            if case .parameter(let name, _) = segment {
                // A linear scan for the few parameters of a real route; a set once there are many.
                let repeated: Bool
                if names != nil || segments.count > 16 {
                    if names == nil { names = Set(segments.compactMap(\.parameterName)) }
                    repeated = !(names?.insert(name).inserted ?? true)
                } else {
                    repeated = segments.contains { $0.parameterName == name }
                }
                if repeated {
                    throw error(.duplicateParameter, at: piece.offset, "the parameter name '\(name)' is used twice")
                }
            }
            segments.append(segment)
        }

        if runs.count == 1, let run = runs.first {
            // One run (no optional group in this shape, the usual case): its pieces are the run split
            // at '/', parsed as they are found, with no list of pieces in between.
            segments.reserveCapacity(bytes[run].count { $0 == Self.slash } + 1)
            var start = run.lowerBound
            while start < run.upperBound {
                var end = start
                while end < run.upperBound, bytes[end] != Self.slash { end += 1 }
                if end > start {
                    try add(.contiguous(start..<end)) { !bytes[end..<run.upperBound].contains { $0 != Self.slash } }
                    if descriptors != nil, let segment = segments.last {
                        // Where the segment's text is as written: a literal's bytes unless it had
                        // escapes, a parameter's name after its '{' or ':'.
                        let range: Range<Int>?
                        switch segment {
                        case .literal: range = bytes[start..<end].contains(Self.percent) ? nil : start..<end
                        case .parameter(let name, _): range = (start + 1)..<(start + 1 + name.utf8.count)
                        case .wildcard, .catchAll: range = start..<start
                        }
                        if let range, let descriptor = CompactShape.descriptor(segment, range: range) {
                            descriptors?.append(descriptor)
                        } else {
                            descriptors = nil
                        }
                    }
                }
                start = end + 1
            }
            return segments
        }

        descriptors = nil
        var pieces: [Piece] = []
        pieces.reserveCapacity(runs.reduce(1) { count, run in count + bytes[run].count { $0 == Self.slash } })
        var current: [Range<Int>] = []
        func closePiece() {
            if current.count == 1 {
                pieces.append(.contiguous(current[0]))
            } else if !current.isEmpty {
                pieces.append(.spanning(current))
            }
            current.removeAll(keepingCapacity: true)
        }
        for run in runs {
            var start = run.lowerBound
            for index in run where bytes[index] == Self.slash {
                if start < index { current.append(start..<index) }
                closePiece()
                start = index + 1
            }
            if start < run.upperBound { current.append(start..<run.upperBound) }
        }
        closePiece()
        segments.reserveCapacity(pieces.count)
        for (position, piece) in pieces.enumerated() {
            try add(piece) { position == pieces.count - 1 }
        }
        return segments
    }

    private func parseSegment(_ piece: Piece) throws(WaypointError) -> PatternSegment {
        let offset = piece.offset
        let segment: ArraySlice<UInt8> =
            switch piece {
            case .contiguous(let range): bytes[range]
            case .spanning(let ranges): ArraySlice(ranges.flatMap { bytes[$0] })
            }
        let first = segment[segment.startIndex]
        let last = segment[segment.endIndex - 1]
        if first == Self.star && segment.count <= 2 && last == Self.star {
            return segment.count == 1 ? .wildcard : .catchAll
        }
        var text: String { String(decoding: segment, as: UTF8.self) }
        if first == Self.openBrace {
            let inner = segment.dropFirst().dropLast()
            guard segment.count >= 2, last == Self.closeBrace,
                !inner.contains(Self.openBrace), !inner.contains(Self.closeBrace)
            else {
                throw error(
                    .invalidParameter,
                    at: offset,
                    "'\(text)' must be a whole segment of the form {name} or {name:type}"
                )
            }
            guard let colon = inner.firstIndex(of: Self.colon) else {
                return .parameter(name: try validName(inner, at: offset), type: .string)
            }
            let name = try validName(inner[..<colon], at: offset)
            guard let type = ParameterType(utf8: inner[(colon + 1)...]) else {
                let typeName = String(decoding: inner[(colon + 1)...], as: UTF8.self)
                let known = ParameterType.allCases.map(\.rawValue).joined(separator: ", ")
                throw error(.unknownType, at: offset, "unknown parameter type '\(typeName)' (known: \(known))")
            }
            return .parameter(name: name, type: type)
        }
        if first == Self.colon {
            return .parameter(name: try validName(segment.dropFirst(), at: offset), type: .string)
        }
        if segment.contains(Self.openBrace) || segment.contains(Self.closeBrace) {
            throw error(
                .invalidParameter,
                at: offset,
                "'\(text)' mixes text and a parameter; a parameter fills its whole segment"
            )
        }
        let literal = text
        guard segment.contains(Self.percent) else { return .literal(literal) }
        return .literal(try decodeLiteral(segment, text: literal, at: offset))
    }

    /// ASCII letters, digits and `_`, not starting with a digit.
    private func validName(_ name: ArraySlice<UInt8>, at offset: Int) throws(WaypointError) -> String {
        let valid =
            !name.isEmpty
            && name.allSatisfy { Self.isASCIILetter($0) || Self.isASCIIDigit($0) || $0 == UInt8(ascii: "_") }
            && !Self.isASCIIDigit(name[name.startIndex])
        let string = String(decoding: name, as: UTF8.self)
        guard valid else {
            throw error(
                .invalidParameter,
                at: offset,
                "'\(string)' is not a parameter name (letters, digits and '_', not starting with a digit)"
            )
        }
        return string
    }

    private func decodeLiteral(
        _ segment: ArraySlice<UInt8>,
        text: String,
        at offset: Int
    ) throws(WaypointError) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(segment.count)
        var index = segment.startIndex
        while index < segment.endIndex {
            if segment[index] == Self.percent {
                guard let byte = escapedByte(in: segment, at: index, end: segment.endIndex) else {
                    throw error(.invalidPercentEscape, at: offset, "'\(text)' has a '%' not followed by two hex digits")
                }
                decoded.append(byte)
                index += 3
            } else {
                decoded.append(segment[index])
                index += 1
            }
        }
        // The link scanner's validator, not `String(validating:as:)`: that needs iOS 18 / macOS 15.
        guard UTF8Check.isValid(decoded) else {
            throw error(.invalidPercentEscape, at: offset, "'\(text)' decodes to invalid UTF-8")
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}
