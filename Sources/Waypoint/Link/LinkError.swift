/// Why some text could not become a ``DeepLink``.
///
/// The error keeps the input that caused it, so it can be reported rather than dropped.
///
/// ```swift
/// do { _ = try DeepLink("myapp://a b") } catch {
///     error.code        // .invalidCharacter
///     error.description // "Link 'myapp://a b' has a space at byte 9; percent-encode it …"
/// }
/// ```
public struct LinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem. New kinds may be added without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        enum Base: String, Sendable, Hashable {
            case empty
            case missingScheme
            case invalidScheme
            case invalidCharacter
            case invalidPercentEscape
            case invalidUTF8
            case nulByte
            case tooLong
            case tooManySegments
            case tooManyQueryItems
            case invalidHost
            case invalidPort
        }
        let base: Base

        /// The input was empty or only white space.
        public static let empty = Code(base: .empty)
        /// The input has neither a scheme nor a leading `/`.
        public static let missingScheme = Code(base: .missingScheme)
        /// The scheme has a character other than letters, digits, `+`, `-`, `.`.
        public static let invalidScheme = Code(base: .invalidScheme)
        /// A character that cannot stand in a link unencoded (space, backslash, control character…).
        public static let invalidCharacter = Code(base: .invalidCharacter)
        /// A `%` not followed by two hexadecimal digits.
        public static let invalidPercentEscape = Code(base: .invalidPercentEscape)
        /// Percent-escapes that do not decode to valid UTF-8.
        public static let invalidUTF8 = Code(base: .invalidUTF8)
        /// A `%00` escape: a NUL byte has no place in a link.
        public static let nulByte = Code(base: .nulByte)
        /// Longer than ``LinkLimits/maxLength``.
        public static let tooLong = Code(base: .tooLong)
        /// More path segments than ``LinkLimits/maxSegments``.
        public static let tooManySegments = Code(base: .tooManySegments)
        /// More query items than ``LinkLimits/maxQueryItems``.
        public static let tooManyQueryItems = Code(base: .tooManyQueryItems)
        /// An `http(s)` link without a host, or with a host that is not a domain name or IP literal.
        public static let invalidHost = Code(base: .invalidHost)
        /// An `http(s)` link whose port is not digits up to 65535.
        public static let invalidPort = Code(base: .invalidPort)

        public var description: String { base.rawValue }
    }

    /// The kind of problem.
    public let code: Code
    /// The text that failed, as it was given.
    public let input: String
    /// The UTF-8 byte offset of the problem in the (leniently encoded) input, when there is one.
    public let offset: Int?
    /// What is wrong and what to do about it, for people.
    public let message: String

    init(_ code: Code, input: String, offset: Int? = nil, message: String) {
        self.code = code
        self.input = input
        self.offset = offset
        self.message = message
    }

    public var description: String { message }
}
