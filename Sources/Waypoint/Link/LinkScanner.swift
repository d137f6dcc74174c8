/// Validates a link's bytes and finds its parts in one pass, without allocating.
///
/// Strict by design: everything a link may not hold unencoded (spaces, backslashes, control
/// characters, non-ASCII) is a typed error naming the byte. Text from people goes through
/// ``LenientText`` first, which encodes what can safely be encoded.
struct LinkScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let input: String
    let limits: LinkLimits

    func scan() throws(LinkError) -> LinkComponents {
        let count = bytes.count
        guard count > 0 else { throw LinkError(.empty, input: input, message: "The link is empty.") }
        guard count <= limits.maxLength else {
            throw LinkError(
                .tooLong,
                input: input,
                message: "Link of \(count) bytes is longer than the limit of \(limits.maxLength) bytes."
            )
        }
        var components = LinkComponents()
        var index = 0
        if bytes[0] != UInt8(ascii: "/") {
            index = try scanScheme(into: &components)
        }
        if index + 1 < count, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/"),
            components.scheme != nil
        {
            index = try scanAuthority(from: index + 2, into: &components)
        } else if components.isWeb {
            // `https:\\evil.com` is refused for its backslash, the real problem, not a missing host.
            if index < count, bytes[index] == UInt8(ascii: "\\") { throw invalidCharacter(bytes[index], at: index) }
            throw LinkError(.invalidHost, input: input, offset: index, message: "Web link '\(input)' has no host.")
        }
        index = try scanPath(from: index, into: &components)
        if index < count, bytes[index] == UInt8(ascii: "?") {
            index = try scanQuery(from: index + 1, into: &components)
        }
        if index < count, bytes[index] == UInt8(ascii: "#") {
            var utf8 = UTF8Check()
            for position in (index + 1)..<count {
                try check(position, allowing: .fragment, utf8: &utf8)
            }
            try finish(&utf8, at: count)
            components.fragment = (index + 1)..<count
        }
        return components
    }

    private func scanScheme(into components: inout LinkComponents) throws(LinkError) -> Int {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") { break }
            let isLetter = asciiLowercased(byte) >= UInt8(ascii: "a") && asciiLowercased(byte) <= UInt8(ascii: "z")
            let isOther =
                (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            if !(isLetter || (index > 0 && isOther)) {
                throw LinkError(
                    .missingScheme,
                    input: input,
                    offset: index,
                    message: "'\(input)' is not a link: it has no scheme (such as myapp: or https:) "
                        + "and does not start with '/'."
                )
            }
            index += 1
        }
        guard index < bytes.count, index > 0 else {
            throw LinkError(
                .missingScheme,
                input: input,
                offset: 0,
                message: "'\(input)' is not a link: it has no scheme (such as myapp: or https:) "
                    + "and does not start with '/'."
            )
        }
        components.scheme = 0..<index
        components.isWeb = Self.isWebScheme(bytes, 0..<index)
        return index + 1
    }

    static func isWebScheme(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard range.count == 4 || range.count == 5 else { return false }
        let start = range.lowerBound
        let isHTTP =
            asciiLowercased(bytes[start]) == UInt8(ascii: "h") && asciiLowercased(bytes[start + 1]) == UInt8(ascii: "t")
            && asciiLowercased(bytes[start + 2]) == UInt8(ascii: "t")
            && asciiLowercased(bytes[start + 3]) == UInt8(ascii: "p")
        return isHTTP && (range.count == 4 || asciiLowercased(bytes[start + 4]) == UInt8(ascii: "s"))
    }

    private func scanAuthority(from start: Int, into components: inout LinkComponents) throws(LinkError) -> Int {
        var index = start
        var utf8 = UTF8Check()
        var lastAt: Int?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "@") { lastAt = index }
            index = try check(index, allowing: .authority, utf8: &utf8)
        }
        try finish(&utf8, at: index)
        components.authority = start..<index
        if components.isWeb {
            components.hasUserInfo = lastAt != nil
            let hostStart = lastAt.map { $0 + 1 } ?? start
            var hostEnd = index
            if hostStart < index, bytes[hostStart] == UInt8(ascii: "[") {
                var close = hostStart
                while close < index, bytes[close] != UInt8(ascii: "]") { close += 1 }
                hostEnd = min(close + 1, index)
            } else {
                var colon = hostStart
                while colon < index, bytes[colon] != UInt8(ascii: ":") { colon += 1 }
                hostEnd = colon
            }
            if hostEnd < index, bytes[hostEnd] == UInt8(ascii: ":") { components.port = (hostEnd + 1)..<index }
            guard hostEnd > hostStart else {
                throw LinkError(
                    .invalidHost,
                    input: input,
                    offset: hostStart,
                    message: "Web link '\(input)' has no host."
                )
            }
            components.host = hostStart..<hostEnd
        } else if index > start {
            components.segmentCount = 1
        }
        return index
    }

    private func scanPath(from start: Int, into components: inout LinkComponents) throws(LinkError) -> Int {
        var index = start
        var segmentStart = start
        var utf8 = UTF8Check()
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "/") {
                try finish(&utf8, at: index)
                try countSegment(segmentStart, index, &components)
                segmentStart = index + 1
                index += 1
                continue
            }
            if byte == UInt8(ascii: "%") { components.pathHasEscapes = true }
            index = try check(index, allowing: .path, utf8: &utf8)
        }
        try finish(&utf8, at: index)
        try countSegment(segmentStart, index, &components)
        components.path = start..<index
        return index
    }

    private func countSegment(_ start: Int, _ end: Int, _ components: inout LinkComponents) throws(LinkError) {
        guard end > start else { return }
        components.segmentCount += 1
        guard components.segmentCount <= limits.maxSegments else {
            throw LinkError(
                .tooManySegments,
                input: input,
                offset: start,
                message: "Link has more than \(limits.maxSegments) path segments, the limit."
            )
        }
    }

    private func scanQuery(from start: Int, into components: inout LinkComponents) throws(LinkError) -> Int {
        var index = start
        var itemStart = start
        var utf8 = UTF8Check()
        func countItem(_ end: Int) throws(LinkError) {
            guard end > itemStart else { return }
            components.queryItemCount += 1
            guard components.queryItemCount <= limits.maxQueryItems else {
                throw LinkError(
                    .tooManyQueryItems,
                    input: input,
                    offset: itemStart,
                    message: "Link has more than \(limits.maxQueryItems) query items, the limit."
                )
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "&") || byte == UInt8(ascii: "=") {
                try finish(&utf8, at: index)
                if byte == UInt8(ascii: "&") {
                    try countItem(index)
                    itemStart = index + 1
                }
                index += 1
                continue
            }
            index = try check(index, allowing: .query, utf8: &utf8)
        }
        try finish(&utf8, at: index)
        try countItem(index)
        components.query = start..<index
        return index
    }

    enum Part { case authority, path, query, fragment }

    /// Checks the byte (or `%XX` escape) at `index`; returns the index after it.
    @discardableResult
    private func check(_ index: Int, allowing part: Part, utf8: inout UTF8Check) throws(LinkError) -> Int {
        let byte = bytes[index]
        if byte == UInt8(ascii: "%") {
            guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            else {
                throw LinkError(
                    .invalidPercentEscape,
                    input: input,
                    offset: index,
                    message: "Link '\(input)' has a '%' at byte \(index) that is not followed by two hex digits; "
                        + "write a literal '%' as %25."
                )
            }
            let decoded = high << 4 | low
            if decoded == 0 {
                throw LinkError(
                    .nulByte,
                    input: input,
                    offset: index,
                    message: "Link '\(input)' has a %00 (NUL) at byte \(index)."
                )
            }
            guard utf8.accept(decoded) else { throw invalidUTF8(at: index) }
            return index + 3
        }
        let allowed =
            byte < 128 && Self.allowed[Int(byte)]
            && (part == .authority || (byte != UInt8(ascii: "[") && byte != UInt8(ascii: "]")))
            && (part != .fragment || byte != UInt8(ascii: "#"))
        guard allowed else { throw invalidCharacter(byte, at: index) }
        guard utf8.accept(byte) else { throw invalidUTF8(at: index) }
        return index + 1
    }

    private func finish(_ utf8: inout UTF8Check, at index: Int) throws(LinkError) {
        guard utf8.isComplete else { throw invalidUTF8(at: index) }
        utf8 = UTF8Check()
    }

    private func invalidUTF8(at index: Int) -> LinkError {
        LinkError(
            .invalidUTF8,
            input: input,
            offset: index,
            message: "Link '\(input)' has percent-escapes near byte \(index) that are not valid UTF-8."
        )
    }

    private func invalidCharacter(_ byte: UInt8, at index: Int) -> LinkError {
        let name: String
        switch byte {
        case UInt8(ascii: " "): name = "a space"
        case UInt8(ascii: "\\"): name = "a backslash"
        case 0..<0x20, 0x7F: name = "control character 0x\(String(byte, radix: 16, uppercase: true))"
        case 0x80...: name = "a non-ASCII character"
        default: name = "'\(Character(Unicode.Scalar(byte)))'"
        }
        let advice =
            byte == UInt8(ascii: "\\") || byte < 0x20 || byte == 0x7F
            ? "it cannot be part of a link."
            : "percent-encode it, or parse text from people with DeepLink(text:)."
        return LinkError(
            .invalidCharacter,
            input: input,
            offset: index,
            message: "Link '\(input)' has \(name) at byte \(index); \(advice)"
        )
    }

    /// RFC 3986 characters that may stand unencoded: unreserved, sub-delims, `:@/?#[]` and `%`.
    static let allowed: [Bool] = {
        var table = [Bool](repeating: false, count: 128)
        for byte in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?#[]%".utf8 {
            table[Int(byte)] = true
        }
        return table
    }()
}

/// An incremental UTF-8 validator for percent-decoded bytes (rejects overlongs and surrogates).
struct UTF8Check {
    private var needed = 0
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    var isComplete: Bool { needed == 0 }

    mutating func accept(_ byte: UInt8) -> Bool {
        if needed > 0 {
            guard byte >= lower, byte <= upper else { return false }
            needed -= 1
            lower = 0x80
            upper = 0xBF
            return true
        }
        switch byte {
        case 0x00...0x7F: return true
        case 0xC2...0xDF: needed = 1
        case 0xE0: (needed, lower) = (2, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: needed = 2
        case 0xED: (needed, upper) = (2, 0x9F)
        case 0xF0: (needed, lower) = (3, 0x90)
        case 0xF1...0xF3: needed = 3
        case 0xF4: (needed, upper) = (3, 0x8F)
        default: return false
        }
        return true
    }
}
