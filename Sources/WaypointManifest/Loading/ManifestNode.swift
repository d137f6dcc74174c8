import Foundation
import Waypoint
import Yams

/// A YAML node with where it stands, and typed readers that fail with the file, line and column.
struct ManifestNode {
    let node: Node
    /// The key path for messages: `routes[2].pattern`.
    let path: String
    let file: String

    var location: SourceLocation {
        SourceLocation(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
    }

    func error(_ message: String) -> ManifestError { ManifestError(message, at: location) }

    /// The members of a mapping, refusing keys outside `allowed` (so a typo is never ignored).
    func mapping(allowed: [String]) throws(ManifestError) -> [String: ManifestNode] {
        guard case .mapping(let mapping) = node else { throw error("'\(path)' must be a mapping.") }
        var members: [String: ManifestNode] = [:]
        for (key, value) in mapping {
            guard let name = key.string else {
                throw ManifestNode(node: key, path: path, file: file).error("Keys must be strings.")
            }
            let child = ManifestNode(node: value, path: path.isEmpty ? name : path + "." + name, file: file)
            guard allowed.contains(name) else {
                let meant = Spelling.nearest(to: name, in: allowed).map { " Did you mean '\($0)'?" } ?? ""
                throw ManifestNode(node: key, path: child.path, file: file).error(
                    "Unknown key '\(name)'\(path.isEmpty ? "" : " in '\(path)'").\(meant) Expected one of: "
                        + "\(allowed.joined(separator: ", "))."
                )
            }
            members[name] = child
        }
        return members
    }

    /// The members of a mapping with any keys, in file order.
    func entries() throws(ManifestError) -> [(key: String, value: ManifestNode)] {
        guard case .mapping(let mapping) = node else { throw error("'\(path)' must be a mapping.") }
        var entries: [(String, ManifestNode)] = []
        for (key, value) in mapping {
            guard let name = key.string else {
                throw ManifestNode(node: key, path: path, file: file).error("Keys must be strings.")
            }
            entries.append((name, ManifestNode(node: value, path: path + "." + name, file: file)))
        }
        return entries
    }

    func list() throws(ManifestError) -> [ManifestNode] {
        guard case .sequence(let sequence) = node else { throw error("'\(path)' must be a list.") }
        return sequence.enumerated().map { ManifestNode(node: $1, path: "\(path)[\($0)]", file: file) }
    }

    func string() throws(ManifestError) -> String {
        guard case .scalar(let scalar) = node else { throw error("'\(path)' must be a string.") }
        return scalar.string
    }

    func nonEmptyString() throws(ManifestError) -> String {
        let value = try string()
        guard !value.isEmpty else { throw error("'\(path)' must not be empty.") }
        return value
    }

    /// A link template, its braces checked at its line (``LinkTemplate/check()``, the rule the
    /// app's intake meets), so a brace left open is not reported later as a link no route matches.
    func template(allowingEmpty: Bool = false) throws(ManifestError) -> LinkTemplate {
        let template = LinkTemplate(allowingEmpty ? try string() : try nonEmptyString())
        do {
            try template.check()
        } catch {
            throw self.error(error.message)
        }
        return template
    }

    func int() throws(ManifestError) -> Int {
        guard case .scalar = node, let value = node.int else { throw error("'\(path)' must be a whole number.") }
        return value
    }

    func bool() throws(ManifestError) -> Bool {
        guard case .scalar = node, let value = node.bool else { throw error("'\(path)' must be true or false.") }
        return value
    }

    /// A duration in seconds: a whole number of seconds, or one with a unit (`90s`, `30m`, `2h`, `1d`).
    func duration() throws(ManifestError) -> TimeInterval {
        let problem = "'\(path)' must be a duration: seconds (3600) or a number with s, m, h or d (30m, 2h)."
        guard case .scalar(let scalar) = node else { throw error(problem) }
        let text = scalar.string.trimmingCharacters(in: .whitespaces)
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        let unit = text.last.flatMap { units[$0] }
        let digits = unit == nil ? text[...] : text.dropLast()
        // At most a year: a wait longer than that is a mistake, and a bound keeps the sum finite.
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let count = Int(digits), count > 0, TimeInterval(count) * (unit ?? 1) <= 366 * 86_400
        else { throw error(problem + " At most a year.") }
        return TimeInterval(count) * (unit ?? 1)
    }

    /// A list of strings; a single string reads as a list of one.
    func strings() throws(ManifestError) -> [String] {
        if case .scalar = node { return [try string()] }
        guard case .sequence = node else { throw error("'\(path)' must be a list of strings.") }
        var values: [String] = []
        for item in try list() {
            guard case .scalar = item.node else { throw item.error("'\(path)' must be a list of strings.") }
            values.append(try item.string())
        }
        return values
    }

    var isMapping: Bool {
        if case .mapping = node { true } else { false }
    }

    /// A list; a single item reads as a list of one.
    func items() throws(ManifestError) -> [ManifestNode] {
        if case .sequence = node { return try list() }
        return [self]
    }

    /// A key path in a payload, as ``PayloadPath`` prints it: keys joined by `.`, a key that holds a
    /// dot in double quotes (`"com.batch".l`); or a list of keys (`[com.batch, l]`).
    func payloadPath() throws(ManifestError) -> PayloadPath {
        if case .sequence = node {
            let keys = try strings()
            guard !keys.isEmpty else { throw error("'\(path)' must name at least one key.") }
            return PayloadPath(keys: keys)
        }
        let text = try nonEmptyString()
        guard let parsed = PayloadPath(dotted: text) else {
            throw error(
                "'\(text)' is not a key path: keys joined by '.', a key that holds a dot in double quotes "
                    + #"('"com.batch".l'), or a list of keys ([com.batch, l])."#
            )
        }
        return parsed
    }

    /// The node as a payload value: YAML's (or pasted JSON's) mappings, lists, numbers, booleans,
    /// nulls and strings, typed as JSON would type them (YAML 1.2's core schema): a quoted scalar
    /// is a string, and so are `yes`, `on`, `1_000` and `1:30`, which YAML 1.1 would read as a
    /// boolean or a number no sender's JSON holds (and `0123` is 123, not octal 83).
    func payload() throws(ManifestError) -> PayloadValue {
        switch node {
        case .scalar(let scalar):
            let text = scalar.string
            guard scalar.style == .plain else { return .string(text) }
            switch text {
            case "true", "True", "TRUE": return .bool(true)
            case "false", "False", "FALSE": return .bool(false)
            case "null", "Null", "NULL", "~", "": return .null
            default: break
            }
            // Digits, a sign, a point and an exponent only: Swift's parsers also take `0x1p3`, `inf`
            // and `nan`, which are text in YAML and JSON.
            let unsigned = text.first.map { "+-".contains($0) } == true ? text.dropFirst() : text[...]
            guard let first = unsigned.first, first.isASCII, first.isNumber || first == "." else {
                return .string(text)
            }
            if unsigned.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text) { return .int(number) }
            if unsigned.allSatisfy({ $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }),
                let number = Double(text), number.isFinite
            {
                return .double(number)
            }
            return .string(text)
        case .mapping:
            var members: [String: PayloadValue] = [:]
            for (key, value) in try entries() { members[key] = try value.payload() }
            return .object(members)
        case .sequence:
            var items: [PayloadValue] = []
            for item in try list() { items.append(try item.payload()) }
            return .array(items)
        case .alias:
            throw error("'\(path)' is a YAML alias; write the value out.")
        }
    }
}
