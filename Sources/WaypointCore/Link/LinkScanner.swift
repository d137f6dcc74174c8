/// Validates a link's bytes and finds its parts in one pass, without allocating.
///
/// Strict by design: everything a link may not hold unencoded (spaces, backslashes, control
/// characters, non-ASCII) is a typed error naming the byte. Text from people goes through
/// ``LenientText`` first, which encodes what can safely be encoded.
struct LinkScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: LinkLimits

    /// A failure without the input text: the scanner never touches the `String` (no retains on the
    /// hot path); ``DeepLink`` turns it into a ``WaypointError`` with the input.
    struct Failure: Error {
        let code: WaypointError.Code
        let offset: Int?
        let message: @Sendable (String) -> String

        func error(for input: String) -> WaypointError {
            WaypointError(code, input: input, offset: offset, message: message(input))
        }
    }

    func scan() throws(Failure) -> LinkComponents {
        let count = bytes.count
        guard count > 0 else { throw Failure(code: .empty, offset: nil) { _ in "The link is empty." } }
        guard count <= limits.maxLength else {
            let limit = limits.maxLength
            throw Failure(code: .tooLong, offset: nil) { _ in
                "Link of \(count) bytes is longer than the limit of \(limit) bytes."
            }
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
            throw Failure(code: .invalidHost, offset: index) { input in "Web link '\(input)' has no host." }
        }
        index = try scanPath(from: index, into: &components)
        if index < count, bytes[index] == UInt8(ascii: "?") {
            index = try scanQuery(from: index + 1, into: &components)
        }
        if index < count, bytes[index] == UInt8(ascii: "#") {
            var utf8 = UTF8Check()
            // `check` returns where the next byte starts: an escape is three bytes, read as one.
            var position = index + 1
            while position < count { position = try check(position, allowing: .fragment, utf8: &utf8) }
            try finish(&utf8, at: count)
            components.fragment = (index + 1)..<count
        }
        return components
    }

    private func scanScheme(into components: inout LinkComponents) throws(Failure) -> Int {
        var index = 0
        // The first five bytes, lowercased, little-endian: enough to tell `http` and `https`.
        var head: UInt64 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") { break }
            guard index == 0 ? Self.isSchemeLetter(byte) : Self.isSchemeByte(byte) else {
                throw attemptedScheme(endingAfter: index)
                    ? Self.invalidScheme(at: index) : Self.missingScheme(at: index)
            }
            if index < 5 { head |= UInt64(asciiLowercased(byte)) << UInt64(index * 8) }
            index += 1
        }
        guard index < bytes.count, index > 0 else {
            throw Self.missingScheme(at: 0)
        }
        components.scheme = 0..<index
        components.isWeb = (index == 4 && head == Self.http) || (index == 5 && head == Self.https)
        return index + 1
    }

    /// `http` and `https` packed little-endian, as `scanScheme` packs a scheme's first bytes.
    static let http: UInt64 = 0x7074_7468
    static let https: UInt64 = 0x73_7074_7468

    /// A scheme starts with a letter.
    @inline(__always)
    static func isSchemeLetter(_ byte: UInt8) -> Bool { isIn(byte, low: 0, high: schemeLettersHigh) }

    /// Then letters, digits, `+`, `-` or `.`.
    @inline(__always)
    static func isSchemeByte(_ byte: UInt8) -> Bool { isIn(byte, low: schemeOthersLow, high: schemeLettersHigh) }

    /// Whether the text up to the first `:` reads as a scheme someone meant (`my_app:`, `1password:`)
    /// though a byte at or after `offset` makes it invalid: word characters only, then `://`.
    private func attemptedScheme(endingAfter offset: Int) -> Bool {
        var index = offset
        while index < bytes.count, bytes[index] != UInt8(ascii: ":") {
            let byte = bytes[index]
            guard Self.isSchemeByte(byte) || byte == UInt8(ascii: "_") else { return false }
            index += 1
        }
        return index > 0 && index + 2 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")
            && bytes[index + 2] == UInt8(ascii: "/")
    }

    static func invalidScheme(at offset: Int) -> Failure {
        Failure(code: .invalidScheme, offset: offset) { input in
            let scheme = input.prefix { $0 != ":" }
            return "'\(scheme)' is not a valid scheme: a scheme starts with a letter and holds only letters, digits, "
                + "'+', '-' and '.' (RFC 3986)."
        }
    }

    static func missingScheme(at offset: Int) -> Failure {
        Failure(code: .missingScheme, offset: offset) { input in
            "'\(input)' is not a link: it has no scheme (such as myapp: or https:) and does not start with '/'."
        }
    }

    private func scanAuthority(from start: Int, into components: inout LinkComponents) throws(Failure) -> Int {
        var index = start
        var utf8 = UTF8Check()
        var lastAt: Int?
        while index < bytes.count {
            if utf8.isComplete {
                // The common case, a run of plain bytes, in a tight loop.
                while index < bytes.count, Self.isPlain(bytes[index]) {
                    if bytes[index] == UInt8(ascii: "@") { lastAt = index }
                    index += 1
                }
                guard index < bytes.count else { break }
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "@") { lastAt = index }
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
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
            guard hostEnd > hostStart else {
                throw Failure(code: .invalidHost, offset: hostStart) { input in "Web link '\(input)' has no host." }
            }
            try checkHost(hostStart..<hostEnd)
            // `example.com.` is the same host as `example.com`: policy and routes see one form.
            components.host = hostStart..<(hostStart + Self.withoutTrailingDot(bytes[hostStart..<hostEnd]).count)
            if hostEnd < index {
                guard bytes[hostEnd] == UInt8(ascii: ":") else { throw invalidPort(at: hostEnd) }
                try checkPort((hostEnd + 1)..<index)
                components.port = (hostEnd + 1)..<index
            }
        }
        return index
    }

    /// A web host is a domain name (letters, digits, `-`, `.`, `_`) or an IP literal in brackets.
    /// Escapes and other characters are refused: `a%2F.example.com` would pass a suffix check on
    /// `.example.com`, and a browser decodes it to another host.
    private func checkHost(_ range: Range<Int>) throws(Failure) {
        let isLiteral = bytes[range.lowerBound] == UInt8(ascii: "[")
        for index in range {
            let byte = bytes[index]
            let allowed =
                isLiteral
                ? (index == range.lowerBound || index == range.upperBound - 1 && byte == UInt8(ascii: "]")
                    || hexValue(byte) != nil || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "."))
                : Self.isHostByte(byte)
            guard allowed else {
                throw Failure(code: .invalidHost, offset: index) { input in
                    let shown = byte < 0x80 ? "'\(Character(Unicode.Scalar(byte)))'" : "a non-ASCII byte"
                    return
                        "Web link '\(input)' has \(shown) in its host at byte \(index); a host is letters, digits, '-', '_' and '.' (an international domain is written in punycode, xn--…)."
                }
            }
        }
        if isLiteral, range.count < 3 || bytes[range.upperBound - 1] != UInt8(ascii: "]") {
            throw Failure(code: .invalidHost, offset: range.lowerBound) { input in
                "Web link '\(input)' has an IP literal that is empty or not closed with ']'."
            }
        }
        // An empty label (`..example.com`, `.example.com`) names no host; a trailing dot is the
        // fully qualified form of the same name.
        var previous = UInt8(ascii: ".")
        for index in range where !isLiteral {
            if bytes[index] == UInt8(ascii: "."), previous == UInt8(ascii: ".") {
                throw Failure(code: .invalidHost, offset: index) { input in
                    "Web link '\(input)' has an empty label in its host at byte \(index)."
                }
            }
            previous = bytes[index]
        }
    }

    /// A host name without the trailing dot of its fully qualified form (`example.com.` is
    /// `example.com`): the one rule, for links here and for ``DomainPattern``'s text.
    static func withoutTrailingDot<Bytes: BidirectionalCollection>(_ host: Bytes) -> Bytes.SubSequence
    where Bytes.Element == UInt8 {
        host.last == UInt8(ascii: ".") ? host.dropLast() : host[...]
    }

    /// A port is decimal digits up to 65535; empty means the scheme's default.
    private func checkPort(_ range: Range<Int>) throws(Failure) {
        var value = 0
        for index in range {
            guard let digit = decimalValue(bytes[index]) else { throw invalidPort(at: index) }
            value = value * 10 + digit
            guard value <= 65535 else { throw invalidPort(at: range.lowerBound) }
        }
    }

    private func decimalValue(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private func invalidPort(at index: Int) -> Failure {
        Failure(code: .invalidPort, offset: index) { input in
            "Web link '\(input)' has an invalid port near byte \(index); a port is digits up to 65535, after a single ':'."
        }
    }

    private func scanPath(from start: Int, into components: inout LinkComponents) throws(Failure) -> Int {
        var index = start
        var utf8 = UTF8Check()
        // Segments are counted with the rule the router's buffer is filled by.
        var splitter = SegmentSplitter(pathStart: start)
        // The host of a custom-scheme link routes as the first segment, so it counts as one.
        if let host = components.hostSegment { try count(host, in: &components) }
        while index < bytes.count {
            if utf8.isComplete {
                // The common case, a run of plain bytes, in a tight loop.
                while index < bytes.count, Self.isPlain(bytes[index]) { index += 1 }
                guard index < bytes.count else { break }
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "/") {
                try finish(&utf8, at: index)
                if let segment = splitter.slash(at: index) { try count(segment, in: &components) }
                index += 1
                continue
            }
            index = try check(index, allowing: .path, utf8: &utf8)
        }
        try finish(&utf8, at: index)
        if let segment = splitter.end(at: index) { try count(segment, in: &components) }
        components.path = start..<index
        return index
    }

    private func count(_ segment: Range<Int>, in components: inout LinkComponents) throws(Failure) {
        components.segmentCount += 1
        guard components.segmentCount <= limits.maxSegments else {
            let limit = limits.maxSegments
            throw Failure(code: .tooManySegments, offset: segment.lowerBound) { _ in
                "Link has more than \(limit) path segments, the limit."
            }
        }
    }

    private func scanQuery(from start: Int, into components: inout LinkComponents) throws(Failure) -> Int {
        var index = start
        var itemStart = start
        var utf8 = UTF8Check()
        func countItem(_ end: Int) throws(Failure) {
            guard end > itemStart else { return }
            components.queryItemCount += 1
            guard components.queryItemCount <= limits.maxQueryItems else {
                let limit = limits.maxQueryItems
                throw Failure(code: .tooManyQueryItems, offset: itemStart) { _ in
                    "Link has more than \(limit) query items, the limit."
                }
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "#") { break }
            if byte != UInt8(ascii: "&"), byte != UInt8(ascii: "="), Self.isPlain(byte), utf8.isComplete {
                index += 1
                continue
            }
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
    private func check(_ index: Int, allowing part: Part, utf8: inout UTF8Check) throws(Failure) -> Int {
        let byte = bytes[index]
        if byte == UInt8(ascii: "%") {
            guard let decoded = escapedByte(in: bytes, at: index, end: bytes.count) else {
                throw Failure(code: .invalidPercentEscape, offset: index) { input in
                    "Link '\(input)' has a '%' at byte \(index) that is not followed by two hex digits; write a literal '%' as %25."
                }
            }
            if decoded == 0 {
                throw Failure(code: .nulByte, offset: index) { input in
                    "Link '\(input)' has a %00 (NUL) at byte \(index)."
                }
            }
            guard utf8.accept(decoded) else { throw invalidUTF8(at: index) }
            if utf8.endedInBidiControl { throw Self.bidiControl(at: index, endingAt: index + 2) }
            return index + 3
        }
        let allowed =
            Self.isAllowed(byte)
            && (part == .authority || (byte != UInt8(ascii: "[") && byte != UInt8(ascii: "]")))
            && (part != .fragment || byte != UInt8(ascii: "#"))
        guard allowed else { throw invalidCharacter(byte, at: index) }
        guard utf8.accept(byte) else { throw invalidUTF8(at: index) }
        return index + 1
    }

    private func finish(_ utf8: inout UTF8Check, at index: Int) throws(Failure) {
        guard utf8.isComplete else { throw invalidUTF8(at: index) }
        utf8 = UTF8Check()
    }

    private func invalidUTF8(at index: Int) -> Failure {
        Failure(code: .invalidUTF8, offset: index) { input in
            "Link '\(input)' has percent-escapes near byte \(index) that are not valid UTF-8."
        }
    }

    /// A bidirectional formatting character in a link, found at byte `offset` and ending at byte `end`.
    static func bidiControl(at offset: Int, endingAt end: Int) -> Failure {
        Failure(code: .invalidCharacter, offset: offset) { input in
            "Link '\(input)' has a bidirectional formatting character (such as U+202E) ending at byte "
                + "\(end); links may not carry them (RFC 3987): they make text show in another order than it reads."
        }
    }

    private func invalidCharacter(_ byte: UInt8, at index: Int) -> Failure {
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
            : "percent-encode it, or read text from people leniently (LinkIntake.text(_:), DeepLink(text:))."
        return Failure(code: .invalidCharacter, offset: index) { input in
            "Link '\(input)' has \(name) at byte \(index); \(advice)"
        }
    }

    // Character classes as bit masks, one bit per byte: `low` for bytes 0–63, `high` for 64–127.
    // Integer literals, so no lazy initialization per byte; no byte from 128 on is in any class.

    /// RFC 3986 characters that may stand unencoded: unreserved, sub-delims, `:@/?#[]` and `%`.
    static let allowedLow: UInt64 = 0xAFFF_FFFA_0000_0000
    static let allowedHigh: UInt64 = 0x47FF_FFFE_AFFF_FFFF

    /// Unreserved characters and sub-delims, `:` and `@`: what needs no further look in a path.
    static let plainLow: UInt64 = 0x2FFF_7FD2_0000_0000
    static let plainHigh: UInt64 = 0x47FF_FFFE_87FF_FFFF

    /// ASCII letters (all in 64–127), and the digits, `+`, `-` and `.` (all in 0–63) of a scheme.
    static let schemeLettersHigh: UInt64 = 0x07FF_FFFE_07FF_FFFE
    static let schemeOthersLow: UInt64 = 0x03FF_6800_0000_0000

    /// Whether the byte's bit is set in the class: branch-free but for the mask's choice.
    @inline(__always)
    static func isIn(_ byte: UInt8, low: UInt64, high: UInt64) -> Bool {
        let mask = byte < 64 ? low : high
        return byte < 128 && (mask >> UInt64(byte & 63)) & 1 != 0
    }

    @inline(__always)
    static func isAllowed(_ byte: UInt8) -> Bool { isIn(byte, low: allowedLow, high: allowedHigh) }

    @inline(__always)
    static func isPlain(_ byte: UInt8) -> Bool { isIn(byte, low: plainLow, high: plainHigh) }

    /// What a domain name's bytes may be, in any case: letters, digits, `-`, `.` and `_`.
    static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}

/// An incremental UTF-8 validator for percent-decoded bytes (rejects overlongs and surrogates).
struct UTF8Check {
    private var needed = 0
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF
    /// The scalar being decoded, so a finished one can be looked at.
    private var scalar: UInt32 = 0
    /// The last scalar finished was a bidirectional formatting character (LRM, RLM, ALM, the
    /// embeddings, overrides and isolates), which RFC 3987 (section 4.1) forbids in links: it makes
    /// text show in another order than it reads (`file‮fdp.exe` shows as `fileexe.pdf`).
    private(set) var endedInBidiControl = false

    var isComplete: Bool { needed == 0 }

    static func isBidiControl(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether `bytes` are well-formed UTF-8 as a whole.
    static func isValid(_ bytes: some Sequence<UInt8>) -> Bool {
        var check = UTF8Check()
        for byte in bytes where !check.accept(byte) { return false }
        return check.isComplete
    }

    mutating func accept(_ byte: UInt8) -> Bool {
        if needed > 0 {
            guard byte >= lower, byte <= upper else { return false }
            needed -= 1
            lower = 0x80
            upper = 0xBF
            scalar = scalar << 6 | UInt32(byte & 0x3F)
            if needed == 0 { endedInBidiControl = Self.isBidiControl(scalar) }
            return true
        }
        endedInBidiControl = false
        switch byte {
        case 0x00...0x7F: return true
        case 0xC2...0xDF: (needed, scalar) = (1, UInt32(byte & 0x1F))
        case 0xE0: (needed, lower, scalar) = (2, 0xA0, 0)
        case 0xE1...0xEC, 0xEE...0xEF: (needed, scalar) = (2, UInt32(byte & 0x0F))
        case 0xED: (needed, upper, scalar) = (2, 0x9F, UInt32(byte & 0x0F))
        case 0xF0: (needed, lower, scalar) = (3, 0x90, 0)
        case 0xF1...0xF3: (needed, scalar) = (3, UInt32(byte & 0x07))
        case 0xF4: (needed, upper, scalar) = (3, 0x8F, 4)
        default: return false
        }
        return true
    }
}
