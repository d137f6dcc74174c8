import Foundation

// `indirect`: each node's value lives in one box, so code that copies or switches over a payload moves
// one word, and a link that carries no payload holds a null pointer (5.5 KB less machine code for a
// device; Scripts/measure-core.sh). A payload is read once per notification, so a box a node costs nothing
// anyone can feel.
/// A notification payload, shortcut `userInfo` or web-message body as a `Sendable` value tree.
///
/// Apple delivers these as `[AnyHashable: Any]`; adapters convert them once with
/// ``init(any:maxDepth:)``, which refuses what is not plist- or JSON-like and trees nested deeper than
/// the limit, instead of crashing or dropping them.
///
/// ```swift
/// let payload = try PayloadValue(any: ["aps": ["category": "bookDetail"], "book_id": 42] as [String: Any])
/// payload["aps.category"]   // .string("bookDetail")
/// payload["book_id"]?.text  // "42"
/// ```
public indirect enum PayloadValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A text.
    case string(String)
    /// A whole number.
    case int(Int)
    /// A number with a fraction.
    case double(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// A list.
    case array([PayloadValue])
    /// Members by key.
    case object([String: PayloadValue])
    /// JSON's `null` (`NSNull`).
    case null

    /// Equal payloads hash alike. An array or object hashes by its count, not its members: a payload
    /// is rarely a key, and hashing a dictionary's members (in any order) costs the core 4 KB of
    /// device code.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let value): hasher.combine(value)
        case .int(let value): hasher.combine(value)
        case .double(let value): hasher.combine(value)
        case .bool(let value): hasher.combine(value)
        case .array(let values): hasher.combine(values.count)
        case .object(let members): hasher.combine(members.count)
        case .null: hasher.combine(0)
        }
    }

    /// The default nesting limit for ``init(any:maxDepth:)``.
    public static let defaultMaxDepth = 16

    /// Converts a Foundation value (`String`, numbers, `Bool`, `NSNull`, `Date`, `URL`, `Data`, arrays
    /// and dictionaries with string keys) into a payload. A date becomes its ISO 8601 text, and data
    /// its Base64 text, as JSON carries both.
    ///
    /// ```swift
    /// try PayloadValue(any: ["deeplink": "myapp://books/1", "thumb": Data([0xFF, 0xD8])])["thumb"]  // .string("/9g=")
    /// ```
    public init(any value: Any, maxDepth: Int = PayloadValue.defaultMaxDepth) throws(WaypointError) {
        self = try Self.convert(value, depth: 0, maxDepth: maxDepth, path: "")
    }

    private static func convert(
        _ value: Any,
        depth: Int,
        maxDepth: Int,
        path: String
    ) throws(WaypointError) -> PayloadValue {
        guard depth <= maxDepth else {
            // Described by its place only: describing the rest of a deep tree would recurse as deep.
            throw WaypointError(
                .payloadTooDeep,
                input: Self.brief(value),
                message: "The payload nests deeper than \(maxDepth) levels at '\(path)'."
            )
        }
        if let value = value as? PayloadValue {
            // Already converted, but under whatever limit its maker chose: this one still holds.
            if let deepest = value.firstPath(deeperThan: maxDepth - depth) {
                let joint = path.isEmpty || deepest.isEmpty || deepest.hasPrefix("[") ? "" : "."
                let place = path + joint + deepest
                throw WaypointError(
                    .payloadTooDeep,
                    input: Self.brief(value),
                    message: "The payload nests deeper than \(maxDepth) levels at '\(place)'."
                )
            }
            return value
        }
        // Exact Swift types first: `as? Bool` would also accept any NSNumber, 1 included.
        let exactType = type(of: value)
        if exactType == Bool.self, let value = value as? Bool { return .bool(value) }
        if exactType == Int.self, let value = value as? Int { return .int(value) }
        if exactType == Double.self, let value = value as? Double { return .double(value) }
        // Containers before `as NSNumber`: casting a dictionary to a Foundation class bridges the
        // whole subtree first, recursing as deep as it nests, before the depth guard could run.
        if let value = value as? [AnyHashable: Any] {
            return try object(value, depth: depth, maxDepth: maxDepth, path: path)
        }
        if let value = value as? [Any] {
            var items: [PayloadValue] = []
            for (index, item) in value.enumerated() {
                items.append(try convert(item, depth: depth + 1, maxDepth: maxDepth, path: path + "[\(index)]"))
            }
            return .array(items)
        }
        switch value {
        case let value as String: return .string(value)
        case let value as NSNumber: return number(value)
        case let value as URL: return .string(value.absoluteString)
        case let value as Date: return .string(ISO8601DateFormatter().string(from: value))
        // A property-list value that handoff state, local notifications and quick actions carry.
        case let value as Data: return .string(value.base64EncodedString())
        case is NSNull: return .null
        default:
            throw WaypointError(
                .unsupportedPayload,
                input: Self.brief(value),
                message: "The payload has a value of type \(type(of: value)) at \(Self.place(path)), which is no "
                    + "property-list or JSON value: send text, numbers, booleans, dates, data, lists or dictionaries."
            )
        }
    }

    private static func object(
        _ value: [AnyHashable: Any],
        depth: Int,
        maxDepth: Int,
        path: String
    ) throws(WaypointError) -> PayloadValue {
        var object: [String: PayloadValue] = [:]
        for (key, item) in value {
            guard let key = key.base as? String else {
                throw WaypointError(
                    .unsupportedPayload,
                    input: Self.brief(value),
                    message: "The payload has a key that is not text at \(Self.place(path)): \(Self.key(key.base)) "
                        + "(\(type(of: key.base))); every key of a property list or JSON object is text."
                )
            }
            let childPath = path.isEmpty ? key : path + "." + key
            object[key] = try convert(item, depth: depth + 1, maxDepth: maxDepth, path: childPath)
        }
        return .object(object)
    }

    /// A key that is not text, for a message: a number as written, anything else by its type, never
    /// described in full (a key may be a whole nested array).
    private static func key(_ key: Any) -> String {
        switch key {
        case let key as Int: String(key)
        case let key as NSNumber: key.stringValue
        default: "a \(type(of: key))"
        }
    }

    /// `'data.thumb'`, or `the top level` for the empty path.
    private static func place(_ path: String) -> String { path.isEmpty ? "the top level" : "'\(path)'" }

    /// A description of a value that never recurses into it: containers by size, scalars in full
    /// (bounded), so an error can name what it refused however deep or large that is.
    private static func brief(_ value: Any) -> String {
        switch value {
        case let value as PayloadValue:
            switch value {
            case .array(let items): "an array of \(items.count) items"
            case .object(let members): "an object of \(members.count) members"
            default: String(value.description.prefix(256))
            }
        case let value as [AnyHashable: Any]: "a dictionary of \(value.count) entries"
        case let value as [Any]: "an array of \(value.count) items"
        default: String(String(describing: value).prefix(256))
        }
    }

    /// The path of the first value nested more than `limit` levels below this one, found with a
    /// work list instead of recursion; `nil` when none is.
    func firstPath(deeperThan limit: Int) -> String? {
        var pending: [(value: PayloadValue, depth: Int, path: String)] = [(self, 0, "")]
        while let (value, depth, path) = pending.popLast() {
            if depth > limit { return path }
            switch value {
            case .array(let items):
                for (index, item) in items.enumerated() { pending.append((item, depth + 1, path + "[\(index)]")) }
            case .object(let members):
                for (key, member) in members {
                    pending.append((member, depth + 1, path.isEmpty ? key : path + "." + key))
                }
            default: continue
            }
        }
        return nil
    }

    private static func number(_ number: NSNumber) -> PayloadValue {
        // JSONSerialization gives an integer past 64 bits (or below Int.min) as an NSDecimalNumber
        // typed "d": its digits are kept as text, since no Swift integer holds them and a double
        // would round them.
        if let decimal = number as? NSDecimalNumber {
            let digits = decimal.stringValue
            if !digits.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), digits != "NaN" {
                return Int(digits).map(PayloadValue.int) ?? .string(digits)
            }
            return .double(decimal.doubleValue)
        }
        // JSONSerialization gives NSNumber for booleans too; the Objective-C type tells them apart.
        // Integers are read as integers: through `doubleValue` any above 2^53 would change value.
        switch String(cString: number.objCType) {
        case "c", "B": return .bool(number.boolValue)
        case "f", "d": return .double(number.doubleValue)
        // Each pattern has its own `where`: one after both would guard only the second.
        case "Q" where number.uint64Value > UInt64(Int.max), "L" where number.uint64Value > UInt64(Int.max):
            // Past Int's range: kept as its digits rather than rounded.
            return .string(number.stringValue)
        default: return .int(number.intValue)
        }
    }

    /// Parses JSON text into a payload within a nesting limit.
    ///
    /// ```swift
    /// try PayloadValue(json: #"{"data":{"messageId":"1"}}"#)["data.messageId"] // .string("1")
    /// ```
    public init(json: String, maxDepth: Int = PayloadValue.defaultMaxDepth) throws(WaypointError) {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
        } catch {
            throw WaypointError(
                .invalidJSON,
                input: json,
                message: "The payload is not valid JSON" + Self.whereJSONBreaks(error)
            )
        }
        do {
            try self.init(any: object, maxDepth: maxDepth)
        } catch {
            throw WaypointError(error.code, input: json, message: error.message)
        }
    }

    /// Foundation's account of where JSON text breaks (": Unexpected character '/' around line 1,
    /// column 1."), or "." when it gives none: its `localizedDescription` says only that "the data
    /// is not in the correct format".
    package static func whereJSONBreaks(_ error: any Error) -> String {
        guard let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String, !detail.isEmpty else {
            return "."
        }
        return ": " + (detail.hasSuffix(".") ? detail : detail + ".")
    }

    /// The value at a dotted key path (`data.messageId`, `items.0.id`), or `nil`. A key that has
    /// dots of its own, as FCM's `gcm.message_id` and `google.c.a.c_l` do, is found when no key
    /// split at its dots leads to a value: `payload["gcm.message_id"]`.
    public subscript(keyPath: String) -> PayloadValue? {
        value(at: keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)[...])
    }

    /// The value at `keys`, outermost first (array items by index), or `nil`: the one rule for a
    /// place in a payload, a dotted key path's and a provider's alike. Where the keys lead nowhere,
    /// a key is tried joined to the next ones with dots, so `gcm`, `message_id` finds FCM's
    /// `gcm.message_id`.
    package func value(at keys: ArraySlice<String>) -> PayloadValue? {
        guard let first = keys.first else { return self }
        switch self {
        case .object(let object):
            // The key as far as the first dot, then with each next part joined on.
            var key = first
            var rest = keys.dropFirst()
            while true {
                if let found = object[key]?.value(at: rest) { return found }
                guard let next = rest.first else { return nil }
                key += "." + next
                rest = rest.dropFirst()
            }
        case .array(let items):
            guard let index = Int(first), items.indices.contains(index) else { return nil }
            return items[index].value(at: keys.dropFirst())
        default:
            return nil
        }
    }

    /// The payload with every text equal to `old` replaced by `new`, in objects and arrays too.
    package func replacingText(_ old: String, with new: String) -> PayloadValue {
        switch self {
        case .string(let text) where text == old: .string(new)
        case .object(let members): .object(members.mapValues { $0.replacingText(old, with: new) })
        case .array(let items): .array(items.map { $0.replacingText(old, with: new) })
        default: self
        }
    }

    /// A scalar as text (`"42"`, `"true"`, `"bookDetail"`); `nil` for arrays, objects and null.
    public var text: String? {
        switch self {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .bool(let value): value ? "true" : "false"
        case .array, .object, .null: nil
        }
    }

    /// What kind of value this is, for messages: "a number", "a list", "an object".
    package var kind: String {
        switch self {
        case .string: "text"
        case .int, .double: "a number"
        case .bool: "a boolean"
        case .array: "a list"
        case .object: "an object"
        case .null: "null"
        }
    }

    /// The members of an object; empty for anything else.
    public var objectValue: [String: PayloadValue] {
        if case .object(let object) = self { return object }
        return [:]
    }

    /// The value as JSON text with sorted keys, for reports and logs. A number JSON cannot write
    /// (NaN, an infinity) is written as its ``text``, so such a payload is still reported in full.
    public var description: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf",
            negativeInfinity: "-inf",
            nan: "nan"
        )
        guard let data = try? encoder.encode(self) else { return "<payload>" }
        return String(decoding: data, as: UTF8.self)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([PayloadValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: PayloadValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}

extension PayloadValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(dictionaryLiteral elements: (String, PayloadValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(arrayLiteral elements: PayloadValue...) { self = .array(elements) }
}
