import Foundation

/// An apple-app-site-association pattern: `*` zero or more characters, `?` exactly one (so `?*` is
/// one or more), `$(name)` any of a substitution variable's strings (which may hold `*` and `?`).
///
/// Matching simulates the pattern over the set of positions reachable in the text, so its cost is
/// polynomial in the lengths whatever the pattern, even for a hostile file.
///
/// ```swift
/// try AASAPattern("/books/?*").matches("/books/42")                  // true
/// try AASAPattern("/$(lang)/help").matches("/fr/help")               // true
/// ```
public struct AASAPattern: Sendable {
    indirect enum Token: Sendable {
        case character(Character)
        case anything
        case one
        case variable([[Token]])
    }

    let tokens: [Token]
    public let text: String

    /// The predefined variables: single-character classes, and ISO region and language codes.
    static let predefined: [String: [String]] = {
        let upper = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
        let lower = upper.map { $0.lowercased() }
        let digits = (0...9).map(String.init)
        return [
            "alpha": upper + lower,
            "upper": upper,
            "lower": lower,
            "alnum": upper + lower + digits,
            "digit": digits,
            "xdigit": digits + ["a", "b", "c", "d", "e", "f", "A", "B", "C", "D", "E", "F"],
            "region": Locale.isoRegionCodes,
            "lang": Locale.isoLanguageCodes,
        ]
    }()

    /// Parses a pattern; `variables` are the file's custom substitution variables.
    public init(_ text: String, variables: [String: [String]] = [:]) throws(AASAProblem) {
        self.text = text
        self.tokens = try Self.tokens(text, variables: variables, allowVariables: true)
    }

    private static func tokens(
        _ text: String,
        variables: [String: [String]],
        allowVariables: Bool
    ) throws(AASAProblem) -> [Token] {
        var tokens: [Token] = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "$", text[text.index(after: index)...].hasPrefix("("),
                let close = text[index...].firstIndex(of: ")")
            {
                let name = String(text[text.index(index, offsetBy: 2)..<close])
                guard allowVariables else {
                    throw AASAProblem(
                        "The substitution variable value '\(text)' refers to another variable, which is not allowed."
                    )
                }
                guard let values = variables[name] ?? predefined[name] else {
                    throw AASAProblem(
                        "The pattern '\(text)' uses the substitution variable $(\(name)), which is not defined."
                    )
                }
                var alternatives: [[Token]] = []
                for value in values {
                    alternatives.append(try Self.tokens(value, variables: [:], allowVariables: false))
                }
                tokens.append(.variable(alternatives))
                index = text.index(after: close)
                continue
            }
            switch character {
            case "*": tokens.append(.anything)
            case "?": tokens.append(.one)
            default: tokens.append(.character(character))
            }
            index = text.index(after: index)
        }
        return tokens
    }

    /// Whether the whole `text` matches.
    public func matches(_ text: String, caseSensitive: Bool = true) -> Bool {
        let characters = Array(caseSensitive ? text : text.lowercased())
        return Self.run(tokens, over: characters, from: [0], caseSensitive: caseSensitive).contains(characters.count)
    }

    /// The positions reachable after matching `tokens` from each of `starts`.
    private static func run(
        _ tokens: [Token],
        over text: [Character],
        from starts: Set<Int>,
        caseSensitive: Bool
    ) -> Set<Int> {
        var positions = starts
        for token in tokens {
            guard !positions.isEmpty else { return [] }
            var next: Set<Int> = []
            switch token {
            case .character(let expected):
                let wanted = caseSensitive ? expected : Character(expected.lowercased())
                for position in positions where position < text.count && text[position] == wanted {
                    next.insert(position + 1)
                }
            case .one:
                for position in positions where position < text.count { next.insert(position + 1) }
            case .anything:
                if let lowest = positions.min() { next = Set(lowest...text.count) }
            case .variable(let alternatives):
                for alternative in alternatives {
                    next.formUnion(run(alternative, over: text, from: positions, caseSensitive: caseSensitive))
                }
            }
            positions = next
        }
        return positions
    }

    /// A text the pattern matches, for lint: `*` becomes nothing, `?` an `x`, a variable its first value.
    public static func sampleText(_ pattern: String) -> String {
        var output = ""
        var index = pattern.startIndex
        while index < pattern.endIndex {
            let character = pattern[index]
            if character == "$", let close = pattern[index...].firstIndex(of: ")") {
                let nameStart = pattern.index(index, offsetBy: 2, limitedBy: close) ?? close
                let name = String(pattern[nameStart..<close])
                let first: String = predefined[name]?.first ?? "x"
                output += sampleText(first)
                index = pattern.index(after: close)
                continue
            }
            switch character {
            case "*": break
            case "?": output += "x"
            default: output.append(character)
            }
            index = pattern.index(after: index)
        }
        return output
    }
}

/// A problem in an apple-app-site-association file.
public struct AASAProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
