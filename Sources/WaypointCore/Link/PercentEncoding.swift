// Percent-decoding and -encoding on UTF-8 bytes.
//
// The router compares and type-checks raw segments while decoding them on the fly, so the hot path
// never calls Foundation's percent-decoding and never allocates a decoded copy of a segment.

@inlinable
func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte &- UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte &- UInt8(ascii: "a") &+ 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte &- UInt8(ascii: "A") &+ 10
    default: return nil
    }
}

/// The byte a `%XX` escape at `index` stands for; `nil` when `bytes[index]` is not `%` followed
/// by two hex digits before `end`. The one reading of an escape: the link scanner, the pattern
/// parser and ``DecodedBytes`` all call it.
@inlinable
func escapedByte<Bytes: RandomAccessCollection>(in bytes: Bytes, at index: Int, end: Int) -> UInt8?
where Bytes.Element == UInt8, Bytes.Index == Int {
    guard bytes[index] == UInt8(ascii: "%"), index + 2 < end, let high = hexValue(bytes[index + 1]),
        let low = hexValue(bytes[index + 2])
    else { return nil }
    return high << 4 | low
}

@inlinable
func asciiLowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
}

/// Yields the bytes of a raw link component with `%XX` escapes decoded (and `+` as space in query
/// text). The scanner has already validated every escape, so an incomplete one is yielded as is.
@usableFromInline
struct DecodedBytes: IteratorProtocol {
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline var index: Int
    @usableFromInline let end: Int
    @usableFromInline let plusIsSpace: Bool
    /// `false` for bytes that are already decoded (a route's literals).
    @usableFromInline let decoding: Bool

    @inlinable
    init(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, plusIsSpace: Bool = false, decoding: Bool = true) {
        self.bytes = bytes
        self.index = range.lowerBound
        self.end = range.upperBound
        self.plusIsSpace = plusIsSpace
        self.decoding = decoding
    }

    @inlinable
    mutating func next() -> UInt8? {
        guard index < end else { return nil }
        let byte = bytes[index]
        if decoding, let decoded = escapedByte(in: bytes, at: index, end: end) {
            index += 3
            return decoded
        }
        index += 1
        if plusIsSpace, byte == UInt8(ascii: "+") { return UInt8(ascii: " ") }
        return byte
    }
}

/// Decodes a raw component into a `String`: one allocation at most, none for short values.
func decodeComponent(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, plusIsSpace: Bool = false) -> String {
    String(unsafeUninitializedCapacity: range.count) { buffer in
        var iterator = DecodedBytes(bytes, range, plusIsSpace: plusIsSpace)
        var count = 0
        while let byte = iterator.next() {
            buffer[count] = byte
            count += 1
        }
        return count
    }
}

/// `text` with its `%XX` escapes decoded: the one percent-decoder for text outside a parsed link
/// (a redirect target's segments), by the same reading of an escape as the router's. An incomplete
/// escape stays as written; bytes that are not UTF-8 become U+FFFD.
///
/// ```swift
/// percentDecoded("%2F%2Fevil.com")  // "//evil.com"
/// percentDecoded("100%")            // "100%"
/// ```
func percentDecoded(_ text: some StringProtocol) -> String {
    withUTF8Bytes(String(text)) { decodeComponent($0, 0..<$0.count) }
}

/// Which bytes may stand unencoded in a part of a link that Waypoint builds.
package struct ByteSet: Sendable {
    private var bits: (UInt64, UInt64) = (0, 0)

    init(_ characters: String) {
        for byte in characters.utf8 { insert(byte) }
    }

    private mutating func insert(_ byte: UInt8) {
        if byte < 64 { bits.0 |= 1 << UInt64(byte) } else if byte < 128 { bits.1 |= 1 << UInt64(byte - 64) }
    }

    func contains(_ byte: UInt8) -> Bool {
        if byte < 64 { return bits.0 & (1 << UInt64(byte)) != 0 }
        if byte < 128 { return bits.1 & (1 << UInt64(byte - 64)) != 0 }
        return false
    }

    static let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    /// A path segment: `/` `%` `?` `#` must be escaped; `:` and `@` are too, because a first segment
    /// stands where a host does in `myapp://segment/…`.
    package static let pathSegment = ByteSet(unreserved + "!$&'()*+,;=")
    /// A query name or value: `&` `=` `+` `#` `%` must be escaped.
    package static let queryComponent = ByteSet(unreserved + "!$'()*,;:@/?")
    /// A fragment.
    static let fragment = ByteSet(unreserved + "!$&'()*+,;=:@/?")
}

/// Percent-encodes every byte of `text` outside `allowed`, as uppercase `%XX`.
package func percentEncode(_ text: String, allowed: ByteSet) -> String {
    withUTF8Bytes(text) { bytes in
        // Most values (ids, literals of patterns) need no escape: hand back the same string.
        guard let firstToEscape = bytes.firstIndex(where: { !allowed.contains($0) }) else { return text }
        let hex: StaticString = "0123456789ABCDEF"
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 8)
        output.append(contentsOf: bytes[..<firstToEscape])
        for byte in bytes[firstToEscape...] {
            if allowed.contains(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hex.utf8Start[Int(byte >> 4)])
                output.append(hex.utf8Start[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// Runs `body` over the string's UTF-8 bytes without copying native strings.
@inlinable
func withUTF8Bytes<Result, Failure: Error>(
    _ string: String,
    _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
) throws(Failure) -> Result {
    // The standard library's closures rethrow untyped errors, so carry the typed one out in a Result.
    func run(_ bytes: UnsafeBufferPointer<UInt8>) -> Swift.Result<Result, Failure> {
        do throws(Failure) { return .success(try body(bytes)) } catch { return .failure(error) }
    }
    if let result = string.utf8.withContiguousStorageIfAvailable(run) { return try result.get() }
    var copy = string
    return try copy.withUTF8(run).get()
}
