import Foundation
import Testing

@testable import Waypoint
@testable import WaypointCore

// CPU-bound: about 35 s on two idle cores, four times that on a loaded machine.
/// A reference matcher that states the precedence rules plainly, and random route tables and links
/// on which the trie router must agree with it.
///
/// The reference tries every expansion of every route, one segment at a time, and ranks a match by
/// the kinds of segments it used, position by position: static < int < uuid < bool < double <
/// string < `*` < `**` (a shorter rank list first, so an exact route beats `**` capturing nothing),
/// then higher priority, then earlier registration. Linear, slow and obviously right.
@Suite("The router agrees with a reference matcher on random tables", .timeLimit(.minutes(5)))
struct RouterOracleTests {
    struct ReferenceMatch: Equatable, CustomStringConvertible {
        let route: String
        let parameters: [String: ParameterValue]
        let wildcards: [String]
        var description: String { "\(route) \(parameters.sorted { $0.key < $1.key }) \(wildcards)" }
    }

    static func rank(_ segment: PatternSegment) -> Int {
        switch segment {
        case .literal: 0
        case .parameter(_, .int): 1
        case .parameter(_, .uuid): 2
        case .parameter(_, .bool): 3
        case .parameter(_, .double): 4
        case .parameter(_, .string): 5
        case .wildcard: 6
        case .catchAll: 7
        }
    }

    /// The typed value of a segment, or `nil` when the type does not accept it.
    static func typed(_ type: ParameterType, _ value: String) -> ParameterValue? {
        switch type {
        case .int:
            value.wholeMatch(of: /-?[0-9]+/) == nil ? nil : Int(value).map { .int($0) }
        case .uuid:
            value.wholeMatch(of: /[0-9A-Fa-f]{8}(-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12}/) == nil
                ? nil : UUID(uuidString: value).map { .uuid($0) }
        case .bool:
            ["true", "false"].contains(value.lowercased()) ? .bool(value.lowercased() == "true") : nil
        case .double:
            value.wholeMatch(of: /-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/) == nil
                ? nil : Double(value).map { .double($0) }
        case .string:
            value.isEmpty ? nil : .string(value)
        }
    }

    /// Every (route, expansion) that matches `segments`, best first.
    static func reference(_ routes: [Route<Int>], _ segments: [String], caseSensitive: Bool = true) -> [ReferenceMatch]
    {
        var found: [(ranks: [Int], priority: Int, order: Int, match: ReferenceMatch)] = []
        for (order, route) in routes.enumerated() {
            for expansion in route.pattern.expansions {
                var parameters: [String: ParameterValue] = [:]
                var wildcards: [String] = []
                var ranks: [Int] = []
                var position = 0
                var matched = true
                for segment in expansion {
                    ranks.append(rank(segment))
                    if case .catchAll = segment {
                        wildcards += segments[position...]
                        position = segments.count
                        break
                    }
                    guard position < segments.count else {
                        matched = false
                        break
                    }
                    let value = segments[position]
                    switch segment {
                    case .literal(let text):
                        // The first segment of a custom-scheme link is its host: case-insensitive.
                        matched =
                            position == 0 || !caseSensitive ? text.lowercased() == value.lowercased() : text == value
                    case .parameter(let name, let type):
                        parameters[name] = typed(type, value)
                        matched = parameters[name] != nil
                    case .wildcard:
                        wildcards.append(value)
                    case .catchAll:
                        break
                    }
                    if !matched { break }
                    position += 1
                }
                if matched, position == segments.count {
                    found.append(
                        (
                            ranks, route.priority, order,
                            ReferenceMatch(route: route.name, parameters: parameters, wildcards: wildcards)
                        )
                    )
                }
            }
        }
        found.sort { left, right in
            if left.ranks != right.ranks { return left.ranks.lexicographicallyPrecedes(right.ranks) }
            if left.priority != right.priority { return left.priority > right.priority }
            return left.order < right.order
        }
        return found.map(\.match)
    }

    static func actual(_ match: RouteMatch<Int>) -> ReferenceMatch {
        ReferenceMatch(route: match.route.name, parameters: match.parameters.dictionary, wildcards: match.wildcards)
    }

    // Small pools, so random routes overlap and random links hit them. Literals of 7 bytes and
    // fewer are stored inline in the trie's hash table, longer ones outside it: both kinds, and
    // case variants of each, are in the pools.
    static let literals = ["a", "b", "users", "new", "edit", "x", "profile", "settings", "notifications"]
    static let types: [ParameterType] = [.int, .uuid, .bool, .double, .string]
    static let values = [
        "a", "b", "users", "new", "edit", "x", "New", "USERS", "1", "42", "-7", "2.5", "1e3", "true", "FALSE",
        "profile", "Profile", "settings", "SETTINGS", "notifications", "Notifications", "setting", "settingsx",
        "3F2504E0-4F89-11D3-9A0C-0305E82C3301", "a b", "x/y", "%", "中文",
    ]

    static func randomSegment(_ random: inout SeededRandom, names: inout Int, last: Bool) -> String {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4: return literals.randomElement(using: &random) ?? "a"
        case 4..<8:
            names += 1
            let type = types.randomElement(using: &random) ?? .string
            return type == .string ? "{p\(names)}" : "{p\(names):\(type)}"
        case 8: return "*"
        default: return last ? "**" : "*"
        }
    }

    static func randomPattern(_ random: inout SeededRandom) -> String {
        var names = 0
        // Up to six segments, so some matches capture more values than are kept inline.
        let count = Int.random(in: 1...6, using: &random)
        var text = ""
        for index in 0..<count {
            let segment = randomSegment(&random, names: &names, last: index == count - 1)
            // Now and then an optional group around a middle segment.
            if index > 0, index < count - 1, Int.random(in: 0..<6, using: &random) == 0, segment != "**" {
                text += "(/\(segment))"
            } else {
                text += "/\(segment)"
            }
        }
        return text
    }

    /// Percent-encodes what a link cannot carry, and with `escapeLetters` every letter too
    /// (`users` → `%75%73%65%72%73`): the router must compare decoded bytes, not raw ones.
    static func encode(_ segment: String, escapeLetters: Bool = false) -> String {
        let kept = CharacterSet(charactersIn: "-._~").union(escapeLetters ? .decimalDigits : .alphanumerics)
        return segment.addingPercentEncoding(withAllowedCharacters: kept) ?? segment
    }

    @Test("First match and every candidate in order agree on route, parameters and captures")
    func agreement() throws {
        var random = SeededRandom(seed: 0x5EED_0A11)
        var tables = 0
        var links = 0
        var hits = 0
        while tables < 1500 {
            // A quarter of the tables compare case-insensitively.
            let caseSensitive = Int.random(in: 0..<4, using: &random) != 0
            var builder = RouterBuilder<Int>(configuration: RouterConfiguration(caseSensitive: caseSensitive))
            let count = Int.random(in: 1...12, using: &random)
            for index in 0..<count {
                let pattern = Self.randomPattern(&random)
                _ = try? builder.add(
                    "r\(index)",
                    pattern,
                    priority: Int.random(in: 0...1, using: &random),
                    value: index
                )
            }
            // Tables the builder refuses (duplicates, ambiguity) are not what this test is about.
            guard let router = try? builder.build() else { continue }
            // Release builds skip the builder's own check: the oracle runs it on every table.
            #expect(router.trie.invariantViolations() == [])
            tables += 1
            for _ in 0..<40 {
                let segments = (0..<Int.random(in: 0...7, using: &random)).map { _ in
                    Self.values.randomElement(using: &random) ?? "a"
                }
                let encoded = segments.map { segment in
                    Self.encode(segment, escapeLetters: Int.random(in: 0..<8, using: &random) == 0)
                }
                let link = try DeepLink("app://" + encoded.joined(separator: "/"))
                let expected = Self.reference(builder.routes, link.pathSegments, caseSensitive: caseSensitive)
                let candidates = router.candidates(for: link).map(Self.actual)
                #expect(
                    router.match(link).map(Self.actual) == expected.first,
                    "\(link) in \(builder.routes.map(\.pattern))"
                )
                #expect(candidates == expected, "\(link) in \(builder.routes.map(\.pattern))")
                if let match = router.match(link) { #expect(match.value == match.route.value) }
                links += 1
                if !expected.isEmpty { hits += 1 }
            }
        }
        // The run is only meaningful if it exercised both outcomes often.
        #expect(links == 60_000)
        #expect(hits > 5_000)
        #expect(links - hits > 5_000)
    }
}
