/// Byte-level comparisons and type checks for raw (still percent-encoded) segments.
///
/// Every function decodes `%XX` on the fly through ``DecodedBytes``, so no decoded copy is made.
@usableFromInline
enum SegmentMatching {
    /// The order literal edges are sorted in: case-folded bytes, then exact bytes.
    /// One pass: the first folded difference decides, then length, then the first exact difference
    /// (three lazy lexicographic passes made this a fifth of building a large router).
    static func literalOrder<Bytes: RandomAccessCollection<UInt8>>(_ lhs: Bytes, _ rhs: Bytes) -> Bool
    where Bytes.Index == Int {
        var exactOrder: Bool?
        for index in 0..<min(lhs.count, rhs.count) {
            let (left, right) = (lhs[lhs.startIndex + index], rhs[rhs.startIndex + index])
            if left == right { continue }
            let (foldedLeft, foldedRight) = (asciiLowercased(left), asciiLowercased(right))
            if foldedLeft != foldedRight { return foldedLeft < foldedRight }
            if exactOrder == nil { exactOrder = left < right }
        }
        if lhs.count != rhs.count { return lhs.count < rhs.count }
        return exactOrder ?? false
    }

    /// FNV-1a over the parent node and the case-folded bytes: the key of the literal-edge table.
    @inlinable
    static func hash(parent: Int, _ bytes: DecodedBytes) -> UInt64 {
        var bytes = bytes
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ (UInt64(truncatingIfNeeded: parent) &* 0x9E37_79B9_7F4A_7C15)
        while let byte = bytes.next() { hash = (hash ^ UInt64(asciiLowercased(byte))) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    /// Whether a segment equals a literal of up to 7 bytes packed little-endian into `packed`.
    @inlinable
    static func equalsInline(
        _ input: UnsafeBufferPointer<UInt8>,
        _ segment: Range<Int>,
        _ packed: UInt64,
        _ length: Int,
        fold: Bool
    ) -> Bool {
        var decoded = DecodedBytes(input, segment)
        var shift: UInt64 = 0
        for _ in 0..<length {
            guard let byte = decoded.next() else { return false }
            let expected = UInt8(truncatingIfNeeded: packed >> shift)
            if fold ? asciiLowercased(byte) != asciiLowercased(expected) : byte != expected { return false }
            shift += 8
        }
        return decoded.next() == nil
    }

    /// Compares a segment with a literal: negative, zero or positive as the segment sorts before,
    /// equal to, or after the literal.
    @inlinable
    static func compare(
        _ input: UnsafeBufferPointer<UInt8>,
        _ segment: Range<Int>,
        _ literal: UnsafeBufferPointer<UInt8>,
        fold: Bool
    ) -> Int {
        var decoded = DecodedBytes(input, segment)
        var index = 0
        while true {
            let left = decoded.next()
            guard index < literal.count else { return left == nil ? 0 : 1 }
            guard var left else { return -1 }
            var right = literal[index]
            if fold {
                left = asciiLowercased(left)
                right = asciiLowercased(right)
            }
            if left != right { return left < right ? -1 : 1 }
            index += 1
        }
    }

    /// Whether a segment's decoded value has the edge's type.
    @inlinable
    static func accepts(_ kind: RouteTrie.EdgeKind, _ input: UnsafeBufferPointer<UInt8>, _ segment: Range<Int>) -> Bool
    {
        switch kind {
        case .string, .wildcard, .catchAll: return true
        case .int: return parseInt(DecodedBytes(input, segment)) != nil
        case .uuid: return isUUID(DecodedBytes(input, segment))
        case .bool: return parseBool(DecodedBytes(input, segment)) != nil
        case .double: return isDecimal(DecodedBytes(input, segment))
        }
    }

    /// A decimal `Int` with an optional `-` or `+`; `nil` on overflow or any other character.
    @inlinable
    static func parseInt(_ bytes: DecodedBytes) -> Int? {
        var bytes = bytes
        var negative = false
        var value = 0
        var digits = 0
        var first = true
        while let byte = bytes.next() {
            defer { first = false }
            if first, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
                negative = byte == UInt8(ascii: "-")
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int(byte &- UInt8(ascii: "0"))
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = next
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    @inlinable
    static func parseBool(_ bytes: DecodedBytes) -> Bool? {
        var bytes = bytes
        var word: UInt64 = 0
        var count = 0
        while let byte = bytes.next() {
            count += 1
            guard count <= 5 else { return nil }
            word = word << 8 | UInt64(asciiLowercased(byte))
        }
        // "true" and "false" packed big-endian into an integer.
        if count == 4, word == 0x7472_7565 { return true }
        if count == 5, word == 0x66_616C_7365 { return false }
        return nil
    }

    @inlinable
    static func isUUID(_ bytes: DecodedBytes) -> Bool {
        var bytes = bytes
        var count = 0
        while let byte = bytes.next() {
            if count == 8 || count == 13 || count == 18 || count == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard hexValue(byte) != nil else { return false }
            }
            count += 1
            guard count <= 36 else { return false }
        }
        return count == 36
    }

    /// `[+-]?(digits[.digits]|.digits)([eE][+-]?digits)?`
    @inlinable
    static func isDecimal(_ bytes: DecodedBytes) -> Bool {
        var bytes = bytes
        // States: 0 start, 1 integer digits, 2 after '.', 3 fraction digits, 4 after 'e', 5 exponent sign,
        // 6 exponent digits.
        var state = 0
        var mantissaDigits = 0
        while let byte = bytes.next() {
            let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            switch (state, byte) {
            case (0, UInt8(ascii: "-")), (0, UInt8(ascii: "+")): state = 1
            case (0, _) where isDigit, (1, _) where isDigit:
                state = 1
                mantissaDigits += 1
            case (0, UInt8(ascii: ".")), (1, UInt8(ascii: ".")): state = 2
            case (2, _) where isDigit, (3, _) where isDigit:
                state = 3
                mantissaDigits += 1
            case (1, UInt8(ascii: "e")), (1, UInt8(ascii: "E")), (3, UInt8(ascii: "e")), (3, UInt8(ascii: "E")),
                (2, UInt8(ascii: "e")), (2, UInt8(ascii: "E")):
                guard mantissaDigits > 0 else { return false }
                state = 4
            case (4, UInt8(ascii: "-")), (4, UInt8(ascii: "+")): state = 5
            case (4, _) where isDigit, (5, _) where isDigit, (6, _) where isDigit: state = 6
            default: return false
            }
        }
        return mantissaDigits > 0 && (state == 1 || state == 2 || state == 3 || state == 6)
    }
}
