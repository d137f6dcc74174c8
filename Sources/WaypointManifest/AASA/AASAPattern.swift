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
package struct AASAPattern: Sendable {
    /// One step of a compiled pattern. Characters and variables carry their lowercased form too,
    /// for `caseSensitive: false` (the text is then lowercased as well).
    enum Token: Sendable {
        case character(Character, folded: Character)
        case anything
        case one
        case variable(Alternatives, folded: Alternatives)
    }

    /// A substitution variable's strings. Plain strings are looked up by length (a set per length);
    /// only strings holding `*` or `?` are run as patterns. `$(lang)` has hundreds of strings: a
    /// lookup per length instead of a run per string made checking a file that uses it many
    /// times faster.
    struct Alternatives: Sendable {
        var plain: [Int: Set<String>] = [:]
        var patterns: [[Token]] = []
    }

    let tokens: [Token]
    package let text: String

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
            "region": isoCodes.regions,
            "lang": isoCodes.languages,
        ]
    }()

    /// ISO region and language codes, as Foundation lists them (what Apple's `$(region)` and
    /// `$(lang)` stand for). The older `Locale.isoRegionCodes` is deprecated where the newer API
    /// exists, so each platform uses the newest it has and no build warns.
    private static var isoCodes: (regions: [String], languages: [String]) {
        #if canImport(Darwin)
        if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
            return (
                Locale.Region.isoRegions.map(\.identifier),
                Locale.LanguageCode.isoLanguageCodes.map(\.identifier)
            )
        }
        return (Locale.isoRegionCodes, Locale.isoLanguageCodes)
        #else
        return (Locale.Region.isoRegions.map(\.identifier), Locale.LanguageCode.isoLanguageCodes.map(\.identifier))
        #endif
    }

    /// The predefined variables compiled once for the process, exact and folded.
    private static let predefinedCompiled: [String: (exact: Alternatives, folded: Alternatives)] =
        predefined.mapValues { values in
            (alternatives(values, folded: false), alternatives(values, folded: true))
        }

    /// Parses a pattern; `variables` are the file's custom substitution variables.
    package init(_ text: String, variables: [String: [String]] = [:]) throws(AASAProblem) {
        self.text = text
        let units = Units(text)
        let codes = units.codes
        var tokens: [Token] = []
        tokens.reserveCapacity(codes.count)
        var custom: [String: (exact: Alternatives, folded: Alternatives)] = [:]
        var index = 0
        while index < codes.count {
            let code = codes[index]
            if code == UInt8(ascii: "$"), index + 1 < codes.count, codes[index + 1] == UInt8(ascii: "("),
                let close = codes[(index + 2)...].firstIndex(of: UInt8(ascii: ")"))
            {
                let name = String(units.characters[(index + 2)..<close])
                let compiled = try Self.variable(name, in: text, variables, cache: &custom)
                tokens.append(.variable(compiled.exact, folded: compiled.folded))
                index = close + 1
                continue
            }
            switch code {
            case UInt8(ascii: "*"): tokens.append(.anything)
            case UInt8(ascii: "?"): tokens.append(.one)
            default: tokens.append(.character(units.characters[index], folded: units.folded[index]))
            }
            index += 1
        }
        self.tokens = tokens
    }

    /// A pattern's characters, each lowercased, and each one's ASCII code (0 for any other
    /// character) for finding `*`, `?` and `$(…)` without comparing `Character`s, which cost more
    /// than the rest of compiling. Patterns are nearly always ASCII (the generator percent-encodes
    /// the rest) and a linter run compiles one per route expansion, so ASCII text is read as bytes
    /// through a table; a carriage return takes the general path, where `\r\n` is one character.
    private struct Units {
        var characters: [Character] = []
        var folded: [Character] = []
        var codes: [UInt8] = []

        init(_ text: String) {
            let utf8 = text.utf8
            guard utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\r") }) else {
                characters = Array(text)
                folded = characters.map(AASAPattern.lowercased)
                // `\r\n` reports the code of `\n`; neither is special.
                codes = characters.map { $0.asciiValue ?? 0 }
                return
            }
            let table = Self.asciiCharacters
            characters.reserveCapacity(utf8.count)
            folded.reserveCapacity(utf8.count)
            codes = Array(utf8)
            for byte in codes {
                characters.append(table[Int(byte)])
                let isUpper = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
                folded.append(table[Int(isUpper ? byte | 0x20 : byte)])
            }
        }

        /// The 128 ASCII characters, by code.
        private static let asciiCharacters: [Character] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }
    }

    /// A character lowercased. In Unicode's data lowercasing one character gives one character
    /// (İ gives i with a combining dot: one character); were it ever to give more, the character
    /// is kept as written.
    fileprivate static func lowercased(_ character: Character) -> Character {
        if character.isASCII, character != "\r\n", let ascii = character.asciiValue {
            return (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(ascii)
                ? Character(Unicode.Scalar(ascii | 0x20)) : character
        }
        let lowered = character.lowercased()
        return lowered.count == 1 ? lowered.first ?? character : character
    }

    private static func variable(
        _ name: String,
        in text: String,
        _ variables: [String: [String]],
        cache: inout [String: (exact: Alternatives, folded: Alternatives)]
    ) throws(AASAProblem) -> (exact: Alternatives, folded: Alternatives) {
        if let known = cache[name] { return known }
        let compiled: (exact: Alternatives, folded: Alternatives)
        if let values = variables[name] {
            let refersToVariable = { (value: String) in
                value.range(of: "$(").map { value[$0.upperBound...].contains(")") } ?? false
            }
            if let nested = values.first(where: refersToVariable) {
                throw AASAProblem(
                    "The substitution variable value '\(nested)' refers to another variable, which is not allowed."
                )
            }
            compiled = (alternatives(values, folded: false), alternatives(values, folded: true))
        } else if let predefined = predefinedCompiled[name] {
            compiled = predefined
        } else {
            throw AASAProblem("The pattern '\(text)' uses the substitution variable $(\(name)), which is not defined.")
        }
        cache[name] = compiled
        return compiled
    }

    /// A variable's strings; they cannot refer to other variables (checked by the caller), so `$`
    /// is a plain character in them.
    private static func alternatives(_ values: [String], folded: Bool) -> Alternatives {
        var result = Alternatives()
        for value in values {
            let text = folded ? value.lowercased() : value
            if text.contains(where: { $0 == "*" || $0 == "?" }) {
                // Already lowercased when folded: each character stands for itself in both forms.
                result.patterns.append(
                    text.map { character in
                        switch character {
                        case "*": .anything
                        case "?": .one
                        default: .character(character, folded: character)
                        }
                    }
                )
            } else {
                result.plain[text.count, default: []].insert(text)
            }
        }
        return result
    }

    /// Whether the whole `text` matches.
    package func matches(_ text: String, caseSensitive: Bool = true) -> Bool {
        matches(Self.characters(of: text, caseSensitive: caseSensitive), caseSensitive: caseSensitive)
    }

    /// The characters a text is matched as: lowercased first for `caseSensitive: false`. A checker
    /// makes them once per URL part instead of once per pattern it tries.
    static func characters(of text: String, caseSensitive: Bool) -> [Character] {
        Array(caseSensitive ? text : text.lowercased())
    }

    /// Whether the whole text, prepared by ``characters(of:caseSensitive:)``, matches.
    func matches(_ characters: [Character], caseSensitive: Bool) -> Bool {
        Self.run(tokens, caseSensitive: caseSensitive, over: characters, from: [0]).last == characters.count
    }

    /// The text offsets reachable after `tokens` from each of `starts` (ascending, no repeats):
    /// the pattern simulated over every reachable offset at once, so the cost is polynomial
    /// whatever the pattern, and proportional to the offsets actually reachable.
    private static func run(
        _ tokens: [Token],
        caseSensitive: Bool,
        over text: [Character],
        from starts: [Int]
    ) -> [Int] {
        let count = text.count
        var positions = starts
        for token in tokens {
            guard let lowest = positions.first else { return [] }
            switch token {
            case .character(let exact, let folded):
                let expected = caseSensitive ? exact : folded
                // In place: each kept offset moves to a slot at or before its own.
                var kept = 0
                for index in positions.indices {
                    let position = positions[index]
                    if position < count, text[position] == expected {
                        positions[kept] = position + 1
                        kept += 1
                    }
                }
                positions.removeLast(positions.count - kept)
            case .one:
                if positions.last == count { positions.removeLast() }
                for index in positions.indices { positions[index] += 1 }
            case .anything:
                positions.removeAll(keepingCapacity: true)
                positions.append(contentsOf: lowest...count)
            case .variable(let exact, let folded):
                let alternatives = caseSensitive ? exact : folded
                var reached: [Int] = []
                for position in positions {
                    for (length, strings) in alternatives.plain where position + length <= count {
                        if strings.contains(String(text[position..<(position + length)])) {
                            reached.append(position + length)
                        }
                    }
                }
                for alternative in alternatives.patterns {
                    reached += run(alternative, caseSensitive: caseSensitive, over: text, from: positions)
                }
                reached.sort()
                positions = reached.enumerated().compactMap { $0 == 0 || reached[$0 - 1] != $1 ? $1 : nil }
            }
        }
        return positions
    }

    /// A text the pattern matches, for lint: `*` becomes nothing, `?` an `x`, a variable its first value.
    package static func sampleText(_ pattern: String) -> String {
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
