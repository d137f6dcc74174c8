/// One `name=value` pair of a link's query, decoded (`+` and `%20` are spaces, `%2B` is `+`).
///
/// ```swift
/// try DeepLink("myapp://search?q=a+b&q=c%2Bd").queryItems
/// // [QueryItem(name: "q", value: "a b"), QueryItem(name: "q", value: "c+d")]
/// ```
public struct QueryItem: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The decoded name.
    public var name: String
    /// The decoded value; `nil` when the item has no `=` (as in `?debug`).
    public var value: String?

    /// An item with a name and an optional value.
    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }

    public var description: String { value.map { "\(name)=\($0)" } ?? name }
}
