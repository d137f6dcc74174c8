/// Why Waypoint refused something: a link, a route pattern, a route table, a payload, the app's setup,
/// a parameter or a store. One type for every refusal, told apart by ``code``, and it keeps what
/// caused it (``input``), so the refusal can be reported rather than dropped.
///
/// ```swift
/// do { _ = try DeepLink("myapp://a b") } catch {
///     error.code        // .invalidCharacter
///     error.input       // "myapp://a b"
///     error.description // "Link 'myapp://a b' has a space at byte 9; percent-encode it …"
/// }
/// ```
public struct WaypointError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem. New kinds may be added without breaking callers; ``description`` is the
    /// code's name, stable for logs and JSON.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        let name: Name
        public var description: String { name.rawValue }
    }

    /// The kind of problem.
    public let code: Code
    /// What failed, as it was given: link text, a pattern, a payload's JSON, a route's name, a value.
    public let input: String
    /// The UTF-8 byte offset of the problem in a link, or the character offset in a pattern, when
    /// there is one.
    public let offset: Int?
    /// The routes, barriers or parameter the problem involves, in the order they were given.
    public let names: [String]
    /// The kind of the problem underneath, when this one wraps it: the link error of an intake's
    /// ``Code/invalidLink``, the pattern error of a setup's ``Code/invalidPattern``.
    public let underlyingCode: Code?
    /// What is wrong and what to do about it, for people.
    public let message: String

    /// An error of your own code that Waypoint reports like its own, for example from a
    /// ``PendingLinkStore`` of your own.
    ///
    /// ```swift
    /// throw WaypointError(.storeFailed, message: "The Keychain did not give the key (status -25300).")
    /// ```
    public init(
        _ code: Code,
        input: String = "",
        offset: Int? = nil,
        names: [String] = [],
        underlyingCode: Code? = nil,
        message: String
    ) {
        self.code = code
        self.input = input
        self.offset = offset
        self.names = names
        self.underlyingCode = underlyingCode
        self.message = message
    }

    public var description: String { message }
}
