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
    public var code: Code { storage.code }
    /// What failed, as it was given: link text, a pattern, a payload's JSON, a route's name, a value.
    public var input: String { storage.input }
    /// The UTF-8 byte offset of the problem in a link, or the character offset in a pattern, when
    /// there is one.
    public var offset: Int? { storage.offset }
    /// The routes, barriers or parameter the problem involves, in the order they were given.
    public var names: [String] { storage.names }
    /// The kind of the problem underneath, when this one wraps it: the link error of an intake's
    /// ``Code/invalidLink``, the pattern error of a setup's ``Code/invalidPattern``.
    public var underlyingCode: Code? { storage.underlyingCode }
    /// What is wrong and what to do about it, for people.
    public var message: String { storage.message }

    // The fields, behind one reference: the error travels through every `throws(WaypointError)`, every
    // result and outcome that may hold one, and every copy of those; one word to move instead of six
    // fields keeps all that code smaller (7 KB of the core's machine code for a device).
    private let storage: Storage

    // Compared and hashed by its six fields (identity is only a shortcut), so `WaypointError`'s
    // synthesized `==` and `hash(into:)` work by field, as they did when the fields were stored. A new
    // field goes into both, and into `customMirror`.
    private final class Storage: Sendable, Hashable {
        let code: Code
        let input: String
        let offset: Int?
        let names: [String]
        let underlyingCode: Code?
        let message: String

        init(code: Code, input: String, offset: Int?, names: [String], underlyingCode: Code?, message: String) {
            self.code = code
            self.input = input
            self.offset = offset
            self.names = names
            self.underlyingCode = underlyingCode
            self.message = message
        }

        static func == (lhs: Storage, rhs: Storage) -> Bool {
            lhs === rhs
                || (lhs.code == rhs.code && lhs.input == rhs.input && lhs.offset == rhs.offset
                    && lhs.names == rhs.names && lhs.underlyingCode == rhs.underlyingCode && lhs.message == rhs.message)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(code)
            hasher.combine(input)
            hasher.combine(offset)
            hasher.combine(names)
            hasher.combine(underlyingCode)
            hasher.combine(message)
        }
    }

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
        storage = Storage(
            code: code,
            input: input,
            offset: offset,
            names: names,
            underlyingCode: underlyingCode,
            message: message
        )
    }

    public var description: String { message }

    /// The error's fields, for `dump` and test failures (not its storage).
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "code": code, "input": input, "offset": offset as Any, "names": names,
                "underlyingCode": underlyingCode as Any, "message": message,
            ],
            displayStyle: .struct
        )
    }
}
