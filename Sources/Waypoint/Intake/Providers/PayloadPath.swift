/// A place in a payload, key by key: `["com.batch", "l"]`. Keys may hold dots (Batch's
/// `com.batch`, Airship's `com.urbanairship.remote-data.update`), so a path is a list, not a
/// dotted string; it prints with such keys quoted: `"com.batch".l`.
///
/// ```swift
/// PayloadPath("CIO", "push", "link").value(in: payload)   // .string("myapp://books/42")
/// ```
public struct PayloadPath: Sendable, Hashable, CustomStringConvertible {
    /// The keys, outermost first.
    public let keys: [String]

    /// A path through `keys`, outermost first: `PayloadPath("data", "messageId")`.
    public init(_ keys: String...) { self.keys = keys }
    /// A path through `keys`, outermost first: `PayloadPath(keys: ["data", "messageId"])`.
    public init(keys: [String]) { self.keys = keys }

    /// The value at this place, or `nil`; array items by index. Where the keys lead nowhere, a key
    /// joined to the next ones with dots is tried, as a key path is read (``PayloadValue/subscript(_:)``):
    /// `PayloadPath("gcm", "message_id")` finds FCM's `gcm.message_id`.
    public func value(in payload: PayloadValue) -> PayloadValue? { payload.value(at: keys[...]) }

    /// Reads a path as ``description`` prints it: keys joined by `.`, a key that holds a dot (or is
    /// empty) in double quotes (`"com.batch".l`). `nil` for an empty path, an unquoted empty key,
    /// text after a closing quote or an unclosed quote. (A key that holds a double quote is written
    /// as a list of keys instead.)
    ///
    /// ```swift
    /// PayloadPath(dotted: #""com.batch".l"#)?.keys   // ["com.batch", "l"]
    /// PayloadPath(dotted: "custom..u")               // nil
    /// ```
    package init?(dotted text: String) {
        var keys: [String] = []
        var key = ""
        var quoted = false
        var wasQuoted = false
        for character in text {
            switch character {
            case "\"" where quoted: quoted = false
            case "\"" where key.isEmpty && !wasQuoted: (quoted, wasQuoted) = (true, true)
            case "." where !quoted:
                guard !key.isEmpty || wasQuoted else { return nil }
                keys.append(key)
                (key, wasQuoted) = ("", false)
            case _ where wasQuoted && !quoted: return nil  // text after a closing quote
            default: key.append(character)
            }
        }
        guard !quoted, !key.isEmpty || wasQuoted else { return nil }
        keys.append(key)
        self.keys = keys
    }

    /// `payload` with `value` at this place, objects made on the way (replacing what is not one).
    ///
    /// ```swift
    /// PayloadPath("acme", "url").setting("myapp://x", in: ["aps": [:]])   // ["aps": [:], "acme": ["url": "myapp://x"]]
    /// ```
    package func setting(_ value: PayloadValue, in payload: PayloadValue) -> PayloadValue {
        func set(_ keys: ArraySlice<String>, in current: PayloadValue?) -> PayloadValue {
            guard let key = keys.first else { return value }
            var members = current?.objectValue ?? [:]
            members[key] = set(keys.dropFirst(), in: members[key])
            return .object(members)
        }
        return set(keys[...], in: payload)
    }

    /// The path extended by `key`.
    package func appending(_ key: String) -> PayloadPath { PayloadPath(keys: keys + [key]) }

    public var description: String {
        keys.map { $0.contains(".") || $0.isEmpty ? "\"\($0)\"" : $0 }.joined(separator: ".")
    }
}
