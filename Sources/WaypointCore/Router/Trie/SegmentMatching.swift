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

    /// The key of the literal-edge table for a literal under `parent`, from its case-folded bytes.
    ///
    /// Literals of up to 7 bytes (nearly all: `users`, `orders`, `detail`) are packed into one word
    /// and mixed with one multiply (``packedKey(parent:_:)``); longer ones go through FNV-1a.
    /// Lookups of short segments without escapes compute the same key from ``packed(_:_:)``
    /// without decoding byte by byte.
    @inlinable
    static func hash(parent: Int, _ bytes: DecodedBytes) -> UInt64 {
        if let word = packedDecoded(bytes) { return packedKey(parent: parent, asciiLowercasedWord(word)) }
        return longKey(parent: parent, bytes)
    }

    /// The key of a literal of more than 7 bytes: FNV-1a over the parent and the case-folded bytes.
    @inlinable
    static func longKey(parent: Int, _ bytes: DecodedBytes) -> UInt64 {
        var bytes = bytes
        var hash = FNV1a(seed: UInt64(truncatingIfNeeded: parent) &* 0x9E37_79B9_7F4A_7C15)
        while let byte = bytes.next() { hash.add(asciiLowercased(byte)) }
        return hash.tableKey
    }

    /// The key of a packed, case-folded literal: one multiply. The table takes its slot from the
    /// key's top bits (``ProbingTable/firstSlot(_:)``), which depend on every bit of the word and the parent.
    @inlinable
    static func packedKey(parent: Int, _ foldedWord: UInt64) -> UInt64 {
        (foldedWord ^ (UInt64(truncatingIfNeeded: parent) &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
    }

    /// The segment's raw bytes packed little-endian into a word with the length in the top byte,
    /// when it has at most 7 bytes and no `%` (so its raw bytes are its value); `nil` otherwise.
    ///
    /// One unaligned 8-byte load when 8 bytes are readable from the segment's start, else a byte
    /// loop; either way bytes past the segment are masked off.
    @inlinable
    static func packed(_ input: UnsafeBufferPointer<UInt8>, _ segment: Range<Int>) -> UInt64? {
        let count = segment.count
        guard count <= PackedLiteral.capacity else { return nil }
        guard count > 0, let base = input.baseAddress else { return 0 }
        var word: UInt64 = 0
        if segment.lowerBound + 8 <= input.count {
            let loaded = UnsafeRawPointer(base + segment.lowerBound).loadUnaligned(as: UInt64.self)
            word = UInt64(littleEndian: loaded) & ((1 << UInt64(count * 8)) &- 1)
        } else {
            for offset in 0..<count { word |= UInt64(base[segment.lowerBound + offset]) << UInt64(offset * 8) }
        }
        if containsPercent(word) { return nil }
        return PackedLiteral.pack(word, count: count)
    }

    /// Decoded bytes packed as ``packed(_:_:)`` packs raw ones, when there are at most 7 of them.
    @inlinable
    static func packedDecoded(_ bytes: DecodedBytes) -> UInt64? {
        var bytes = bytes
        var word: UInt64 = 0
        var count = 0
        while let byte = bytes.next() {
            guard count < PackedLiteral.capacity else { return nil }
            word |= UInt64(byte) << UInt64(count * 8)
            count += 1
        }
        return PackedLiteral.pack(word, count: count)
    }

    /// Whether any byte of the word is `%` (SWAR: a byte of `word ^ 0x25…` is zero exactly there).
    @inlinable
    static func containsPercent(_ word: UInt64) -> Bool {
        let spread: UInt64 = 0x0101_0101_0101_0101
        let flipped = word ^ (0x25 &* spread)
        return (flipped &- spread) & ~flipped & (0x80 &* spread) != 0
    }

    /// Whether the segment's raw bytes include `%`.
    @inlinable
    static func containsPercent(_ input: UnsafeBufferPointer<UInt8>, _ segment: Range<Int>) -> Bool {
        for index in segment where input[index] == UInt8(ascii: "%") { return true }
        return false
    }

    /// Every ASCII capital letter of the word made lowercase, eight bytes at once; other bytes,
    /// non-ASCII ones included, unchanged.
    @inlinable
    static func asciiLowercasedWord(_ word: UInt64) -> UInt64 {
        let spread: UInt64 = 0x0101_0101_0101_0101
        let low7 = word & (0x7F &* spread)
        // Bit 7 of each byte: set when the byte is at least "A", and when it is past "Z".
        let atLeastA = low7 &+ ((0x80 - 0x41) &* spread)
        let pastZ = low7 &+ ((0x80 - 0x5B) &* spread)
        let isCapital = atLeastA & ~pastZ & ~word & (0x80 &* spread)
        return word | isCapital >> 2
    }

    /// Whether a packed segment (`raw`, and `folded` lowercased) equals an inline literal packed
    /// the same way; `fold` compares ASCII letters case-insensitively.
    @inlinable
    static func equalsPacked(_ raw: UInt64, folded: UInt64, literal: UInt64, fold: Bool) -> Bool {
        fold ? asciiLowercasedWord(literal) == folded : literal == raw
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
        return ParameterType.parseBool(bytes: &bytes)
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

    /// `[+-]?(digits[.digits]|.digits)([eE][+-]?digits)?`, whose value is finite: like an `Int` that
    /// overflows, a number past `Double`'s range (`1e999`) is not a number a link can carry, and a
    /// built link never holds one (`Double.infinity` writes `inf`).
    @inlinable
    static func isDecimal(_ bytes: DecodedBytes) -> Bool {
        var scan = bytes
        // States: 0 start, 1 integer digits, 2 after '.', 3 fraction digits, 4 after 'e', 5 exponent sign,
        // 6 exponent digits.
        var state = 0
        var mantissaDigits = 0
        // The value is below 10^(magnitude + exponent): `magnitude` counts integer digits after
        // leading zeros, or less the fraction's leading zeros when the integer part is zero.
        var magnitude = 0
        var seenNonZero = false
        var exponent = 0
        var exponentNegative = false
        while let byte = scan.next() {
            let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            switch (state, byte) {
            case (0, UInt8(ascii: "-")), (0, UInt8(ascii: "+")): state = 1
            case (0, _) where isDigit, (1, _) where isDigit:
                state = 1
                mantissaDigits += 1
                seenNonZero = seenNonZero || byte != UInt8(ascii: "0")
                if seenNonZero { magnitude += 1 }
            case (0, UInt8(ascii: ".")), (1, UInt8(ascii: ".")): state = 2
            case (2, _) where isDigit, (3, _) where isDigit:
                state = 3
                mantissaDigits += 1
                if !seenNonZero {
                    seenNonZero = byte != UInt8(ascii: "0")
                    if !seenNonZero { magnitude -= 1 }
                }
            case (1, UInt8(ascii: "e")), (1, UInt8(ascii: "E")), (3, UInt8(ascii: "e")), (3, UInt8(ascii: "E")),
                (2, UInt8(ascii: "e")), (2, UInt8(ascii: "E")):
                guard mantissaDigits > 0 else { return false }
                state = 4
            case (4, UInt8(ascii: "-")), (4, UInt8(ascii: "+")):
                state = 5
                exponentNegative = byte == UInt8(ascii: "-")
            case (4, _) where isDigit, (5, _) where isDigit, (6, _) where isDigit:
                state = 6
                // Saturates far past any text's length, which bounds `magnitude`: the sum still
                // decides, and cannot overflow.
                exponent = min(exponent * 10 + Int(byte &- UInt8(ascii: "0")), 1 << 40)
            default: return false
            }
        }
        guard mantissaDigits > 0, state == 1 || state == 2 || state == 3 || state == 6 else { return false }
        guard seenNonZero else { return true }  // zero, in any spelling
        let order = magnitude + (exponentNegative ? -exponent : exponent)
        // Below 10^308 is finite and 10^309 or more is not (Double's largest is about 1.8e308); the
        // one decade between is rare enough to settle by parsing the text.
        if order <= 308 { return true }
        if order > 309 { return false }
        var text: [UInt8] = []
        var copy = bytes
        while let byte = copy.next() { text.append(byte) }
        return Double(String(decoding: text, as: UTF8.self))?.isFinite ?? false
    }
}
