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
public struct WaypointError: Error, Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The kind of problem. New kinds may be added without breaking callers; ``description`` is the
    /// code's name, stable for logs and JSON.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        let name: Name
        public var description: String { name.rawValue }
    }

    /// The kind of problem.
    public var code: Code { storage.fields.code }
    /// What failed, as it was given: link text, a pattern, a payload's JSON, a route's name, a value.
    public var input: String { storage.fields.input }
    /// The UTF-8 byte offset of the problem in a link, or the character offset in a pattern, when
    /// there is one.
    public var offset: Int? { storage.fields.offset }
    /// The routes, barriers or parameter the problem involves, in the order they were given.
    public var names: [String] { storage.fields.names }
    /// The kind of the problem underneath, when this one wraps it: the link error of an intake's
    /// ``Code/invalidLink``, the pattern error of a setup's ``Code/invalidPattern``.
    public var underlyingCode: Code? { storage.fields.underlyingCode }
    /// What is wrong and what to do about it, for people.
    public var message: String { storage.fields.message }

    // The fields, behind one reference: the error travels through every `throws(WaypointError)`, every
    // result and outcome that may hold one, and every copy of those; one word to move instead of six
    // fields keeps all that code smaller (about 6 KB of the core's machine code for a device).
    private let storage: Storage

    private struct Fields: Sendable, Hashable {
        let code: Code
        let input: String
        let offset: Int?
        let names: [String]
        let underlyingCode: Code?
        let message: String
    }

    // Compared and hashed by its fields (identity is only a shortcut), so `WaypointError`'s synthesized
    // `==` and `hash(into:)` work by field, as they did when the fields were stored in it.
    private final class Storage: Sendable, Hashable {
        let fields: Fields

        init(_ fields: Fields) { self.fields = fields }

        static func == (lhs: Storage, rhs: Storage) -> Bool { lhs === rhs || lhs.fields == rhs.fields }

        func hash(into hasher: inout Hasher) { hasher.combine(fields) }
    }

    /// An error of your own code that Waypoint reports like its own, for example from a
    /// `PendingLinkStore` of your own.
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
        storage = Storage(
            Fields(
                code: code,
                input: input,
                offset: offset,
                names: names,
                underlyingCode: underlyingCode,
                message: message
            )
        )
    }

    public var description: String { message }

    /// The error's fields, for `dump` and test failures (not its storage).
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: storage.fields).children, displayStyle: .struct)
    }
}
