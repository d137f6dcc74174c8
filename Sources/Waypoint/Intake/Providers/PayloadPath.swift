/// A place in a payload, key by key: `["com.batch", "l"]`. Keys may hold dots (Batch's
/// `com.batch`, Airship's `com.urbanairship.remote-data.update`), so a path is a list, not a
/// dotted string; it prints with such keys quoted: `"com.batch".l`.
///
/// ```swift
/// PayloadPath("CIO", "push", "link").value(in: payload)   // .string("myapp://books/42")
/// ```
public struct PayloadPath: Sendable, Hashable, CustomStringConvertible {
    public let keys: [String]

    public init(_ keys: String...) { self.keys = keys }
    public init(keys: [String]) { self.keys = keys }

    /// The value at this place, or `nil`; array items by index.
    public func value(in payload: PayloadValue) -> PayloadValue? {
        var current = payload
        for key in keys {
            switch current {
            case .object(let members):
                guard let next = members[key] else { return nil }
                current = next
            case .array(let items):
                guard let index = Int(key), items.indices.contains(index) else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The path extended by `key`.
    package func appending(_ key: String) -> PayloadPath { PayloadPath(keys: keys + [key]) }

    public var description: String {
        keys.map { $0.contains(".") || $0.isEmpty ? "\"\($0)\"" : $0 }.joined(separator: ".")
    }
}
