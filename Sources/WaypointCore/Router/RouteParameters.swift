import Foundation

/// A match's named path parameters, in pattern order, with typed accessors.
///
/// ```swift
/// let parameters = try router.match("myapp://books/42/chapters/intro")!.parameters
/// parameters["id"]         // .int(42)
/// parameters.int("id")     // 42
/// parameters.string("chapter") // "intro"
/// ```
public struct RouteParameters: Sendable, Hashable, Sequence, CustomStringConvertible {
    /// A parameter's name and value.
    public struct Entry: Sendable, Hashable {
        /// The parameter's name in the pattern.
        public let name: String
        /// The parameter's typed value.
        public let value: ParameterValue
    }

    /// The parameters in the order the pattern names them.
    public let entries: [Entry]

    init(_ entries: [(String, ParameterValue)]) {
        self.entries = entries.map { Entry(name: $0.0, value: $0.1) }
    }

    /// The value of the parameter `name`.
    public subscript(_ name: String) -> ParameterValue? {
        entries.first { $0.name == name }?.value
    }

    /// The parameter as an `Int`, when it is one.
    public func int(_ name: String) -> Int? { self[name]?.intValue }
    /// The parameter as a `Double`, when it is a number.
    public func double(_ name: String) -> Double? { self[name]?.doubleValue }
    /// The parameter as a `Bool`, when it is one.
    public func bool(_ name: String) -> Bool? { self[name]?.boolValue }
    /// The parameter as a `UUID`, when it is one.
    public func uuid(_ name: String) -> UUID? { self[name]?.uuidValue }
    /// The parameter as text.
    public func string(_ name: String) -> String? { self[name]?.stringValue }

    /// Name → value.
    public var dictionary: [String: ParameterValue] {
        Dictionary(entries.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether the match has no named parameters (an optional group left out has none).
    public var isEmpty: Bool { entries.isEmpty }
    /// How many named parameters the match has.
    public var count: Int { entries.count }

    public func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }

    public var description: String {
        "[" + entries.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
