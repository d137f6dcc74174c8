import Foundation

/// The type a path parameter must have for its route to match: `{id:int}`.
///
/// A typed parameter takes precedence over an untyped one at the same position, so `/users/{id:int}`
/// wins `/users/42` over `/users/{name}` while `/users/joel` still reaches the latter.
///
/// ```swift
/// try RoutePattern("/users/{id:int}").expansions   // [[.literal("users"), .parameter(name: "id", type: .int)]]
/// ```
public enum ParameterType: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// A decimal integer that fits in `Int`, with an optional sign: `42`, `-7` (`+42` and `0042`
    /// read as 42 too).
    case int
    /// A UUID in its 8-4-4-4-12 hexadecimal form.
    case uuid
    /// `true` or `false`, in any case.
    case bool
    /// A finite decimal number: `3`, `-2.5`, `1e3` (not `inf`, `nan`, `0x1p3`, nor `1e999`,
    /// which is past `Double`'s range; `1e-999` reads as 0).
    case double
    /// Any non-empty segment (the default).
    case string

    public var description: String { rawValue }

    /// A value of this type, for checks that fill a pattern or a template without a real link:
    /// a redirect's target, lint's sample links.
    package var sampleText: String {
        switch self {
        case .int: "1"
        case .uuid: "9F3C2B4E-1D2A-4C3B-8E4F-5A6B7C8D9E0F"
        case .bool: "true"
        case .double: "1.5"
        case .string: "sample-value"
        }
    }

    /// The one rule for what a bool is, wherever a link's text becomes one (a `{flag:bool}`
    /// segment, ``ParameterValue/boolValue``, a decoded query item): `true` or `false`, in any
    /// case; anything else (`1`, `yes`) is not a bool.
    ///
    /// ```swift
    /// ParameterType.parseBool("TRUE")  // true
    /// ParameterType.parseBool("yes")   // nil
    /// ```
    package static func parseBool(_ text: some StringProtocol) -> Bool? {
        var bytes = text.utf8.makeIterator()
        return parseBool(bytes: &bytes)
    }

    /// The number `text` spells by the router's rule for `{name:double}`: decimal digits with an
    /// optional sign, point and exponent, and a finite value. Swift's `Double(_:)` reads more
    /// (`nan`, `inf`, `0x1p3`, `1e999` as infinity), which no route accepts.
    ///
    /// ```swift
    /// ParameterType.parseDouble("-2.5e3")  // -2500.0
    /// ParameterType.parseDouble("1e999")   // nil
    /// ```
    package static func parseDouble(_ text: String) -> Double? {
        var text = text
        let isDecimal = text.withUTF8 { SegmentMatching.isDecimal(DecodedBytes($0, 0..<$0.count, decoding: false)) }
        return isDecimal ? Double(text) : nil
    }

    /// ``parseBool(_:)`` on bytes as the router reads them, without making a string.
    @inlinable
    static func parseBool<Bytes: IteratorProtocol>(bytes: inout Bytes) -> Bool? where Bytes.Element == UInt8 {
        var word: UInt64 = 0
        var count = 0
        while let byte = bytes.next() {
            count += 1
            guard count <= 5 else { return nil }
            // ASCII letters lowercased; other bytes can match neither word.
            word = word << 8 | UInt64((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte)
        }
        // "true" and "false" packed big-endian into an integer.
        if count == 4, word == 0x7472_7565 { return true }
        if count == 5, word == 0x66_616C_7365 { return false }
        return nil
    }

    /// The type named by these UTF-8 bytes (`int`, `uuid`…), compared without making a string:
    /// the pattern parser meets one per typed parameter.
    init?(utf8 name: some Collection<UInt8>) {
        guard let type = Self.allCases.first(where: { $0.rawValue.utf8.elementsEqual(name) }) else { return nil }
        self = type
    }
}

/// A path parameter's value with its type.
///
/// Literals make building links short: `router.link(for: "messages.detail", ["id": 42])`.
///
/// ```swift
/// let value: ParameterValue = 42
/// value.description // "42"
/// value.intValue    // 42
/// ```
public enum ParameterValue: Sendable, Hashable, CustomStringConvertible {
    /// An `{name:int}` parameter's value.
    case int(Int)
    /// A `{name:uuid}` parameter's value.
    case uuid(UUID)
    /// A `{name:bool}` parameter's value.
    case bool(Bool)
    /// A `{name:double}` parameter's value.
    case double(Double)
    /// A `{name}` (or `{name:string}`) parameter's value, percent-decoded.
    case string(String)

    /// The value as it is written in a link.
    public var description: String {
        switch self {
        case .int(let value): String(value)
        case .uuid(let value): value.uuidString
        case .bool(let value): value ? "true" : "false"
        case .double(let value): String(value)
        case .string(let value): value
        }
    }

    /// The value as an `Int`, when it is one (or a string that reads as one).
    public var intValue: Int? {
        switch self {
        case .int(let value): value
        case .string(let text): Int(text)
        default: nil
        }
    }

    /// The value as a `Double`, when it is a number.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        case .string(let text): ParameterType.parseDouble(text)
        default: nil
        }
    }

    /// The value as a `Bool`, when it is one.
    public var boolValue: Bool? {
        switch self {
        case .bool(let value): value
        case .string(let text): ParameterType.parseBool(text)
        default: nil
        }
    }

    /// The value as a `UUID`, when it is one.
    public var uuidValue: UUID? {
        switch self {
        case .uuid(let value): value
        case .string(let text): UUID(uuidString: text)
        default: nil
        }
    }

    /// The value as text, as it is written in a link.
    public var stringValue: String { description }

    /// The value's type.
    public var type: ParameterType {
        switch self {
        case .int: .int
        case .uuid: .uuid
        case .bool: .bool
        case .double: .double
        case .string: .string
        }
    }
}

extension ParameterValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByFloatLiteral
{
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
}
