/// Why a route pattern could not be parsed. Names the pattern and the offset of the problem.
///
/// ```swift
/// do { _ = try RoutePattern("/a/**/b") } catch {
///     error.description // "Pattern '/a/**/b': '**' must be the last segment (offset 3)."
/// }
/// ```
public struct RoutePatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem. New kinds may be added without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        enum Base: String, Sendable, Hashable {
            case invalidStart, invalidHost, unbalancedParenthesis, emptyGroup, tooManyExpansions, catchAllNotLast
            case invalidCharacter, invalidParameter, duplicateParameter, unknownType, invalidPercentEscape,
                duplicateExpansion
        }
        let base: Base

        /// The pattern starts with neither `/` nor a scheme such as `myapp://`.
        public static let invalidStart = Code(base: .invalidStart)
        /// The host after `https://` is empty or malformed.
        public static let invalidHost = Code(base: .invalidHost)
        /// A `(` without its `)` or the other way round.
        public static let unbalancedParenthesis = Code(base: .unbalancedParenthesis)
        /// `()` with nothing inside.
        public static let emptyGroup = Code(base: .emptyGroup)
        /// Optional groups that expand to more than 256 shapes.
        public static let tooManyExpansions = Code(base: .tooManyExpansions)
        /// `**` anywhere but last.
        public static let catchAllNotLast = Code(base: .catchAllNotLast)
        /// `?`, `#`, a space or a backslash: patterns match paths only.
        public static let invalidCharacter = Code(base: .invalidCharacter)
        /// A parameter that is malformed or shares its segment with text.
        public static let invalidParameter = Code(base: .invalidParameter)
        /// One parameter name used twice.
        public static let duplicateParameter = Code(base: .duplicateParameter)
        /// A parameter type other than `int`, `double`, `bool`, `uuid`, `string`.
        public static let unknownType = Code(base: .unknownType)
        /// A `%` in a literal not followed by two hexadecimal digits.
        public static let invalidPercentEscape = Code(base: .invalidPercentEscape)
        /// Optional groups that expand to the same shape twice.
        public static let duplicateExpansion = Code(base: .duplicateExpansion)

        public var description: String { base.rawValue }
    }

    /// The kind of problem.
    public let code: Code
    /// The pattern as written.
    public let pattern: String
    /// The character offset of the problem in the pattern.
    public let offset: Int
    /// What is wrong, for people.
    public let reason: String

    init(_ code: Code, pattern: String, offset: Int, _ reason: String) {
        self.code = code
        self.pattern = pattern
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "Pattern '\(pattern)': \(reason) (offset \(offset))." }
}
