import Foundation
import Testing

@testable import Waypoint
@testable import WaypointCore

/// A pattern's single shape is kept as descriptors into its text; read back, it must be exactly what
/// the parser made, and a router built from it must behave the same.
@Suite("Compact shapes read back as the parser's segments")
struct CompactShapeTests {
    /// Literals, with and without escapes and non-ASCII letters, and parameter forms (`N` is
    /// replaced by a unique name).
    static let pieces = [
        "users", "{N}", "{N:int}", "{N:uuid}", "{N:bool}", "{N:double}", ":N", "*", "café", "%41b", "a%2Fb",
        "x", "LongerLiteralThanSeven", "ü", "%C3%A9t%C3%A9",
    ]

    @Test("Random patterns: the stored shape equals the parse, and only escapes or limits keep segments")
    func randomPatterns() throws {
        var random = SeededRandom(seed: 0xC0_4AC7)
        var compact = 0
        for _ in 0..<5_000 {
            var parts: [String] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let piece = Self.pieces.randomElement(using: &random) ?? "x"
                parts.append(piece.replacingOccurrences(of: "N", with: "p_\(parts.count)"))
            }
            if Int.random(in: 0..<5, using: &random) == 0 { parts.append("**") }
            let prefix = ["", "myapp:/", "https://example.com"].randomElement(using: &random) ?? ""
            let text = prefix + "/" + parts.joined(separator: "/")
            var parser = RoutePatternParser(text: text)
            let parsed = try parser.parse()
            let pattern = try RoutePattern(text)
            #expect(pattern.expansions == parsed.expansions, "\(text)")
            #expect(pattern.expansion(0) == parsed.expansions.first ?? [], "\(text)")
            let escaped = parts.contains { $0.contains("%") }
            if escaped { #expect(!pattern.isCompact, "\(text)") }
            if !escaped, !parts.isEmpty { #expect(pattern.isCompact, "\(text)") }
            if pattern.isCompact { compact += 1 }
        }
        #expect(compact > 2_000)
    }

    @Test("Offsets past what a descriptor holds keep the segments")
    func longPatterns() throws {
        let long = String(repeating: "a", count: 20_000)
        let pattern = try RoutePattern("/\(long)/{id}")
        #expect(!pattern.isCompact)
        #expect(pattern.expansions == [[.literal(long), .parameter(name: "id", type: .string)]])
        let far = try RoutePattern("/" + String(repeating: "b/", count: 17_000) + "{id:int}")
        #expect(!far.isCompact)
        #expect(far.expansions.first?.last == .parameter(name: "id", type: .int))
        #expect(try RoutePattern("/b/{id:int}").isCompact)
    }

    @Test("Routes with compact and full shapes match and build links alike")
    func routersAgree() throws {
        var builder = RouterBuilder<Int>()
        try builder.add("plain", "/caf\u{E9}/{id:int}", value: 1)
        try builder.add("escaped", "/caf%C3%A9/{id:int}/x", value: 2)
        try builder.add("colon", "/u/:name/*", value: 3)
        let router = try builder.build()
        #expect(builder.routes.map(\.pattern.isCompact) == [true, false, true])
        let plain = try #require(try router.match("myapp:///caf%C3%A9/7"))
        #expect(plain.value == 1)
        #expect(plain.parameters.int("id") == 7)
        #expect(try router.match("myapp:///caf%C3%A9/7/x")?.value == 2)
        let colon = try #require(try router.match("myapp:///u/ada/rest"))
        #expect(colon.parameters["name"] == .string("ada"))
        #expect(colon.wildcards == ["rest"])
        #expect(colon.segments == [.literal("u"), .parameter(name: "name", type: .string), .wildcard])
        #expect(
            try router.link(for: "colon", ["name": "bob"], wildcards: ["w"], style: .scheme("myapp")).string
                == "myapp://u/bob/w"
        )
    }
}
