import Foundation
import Testing

@testable import Waypoint
@testable import WaypointCore

/// The word-at-a-time helpers of the literal table against their byte-at-a-time definitions.
@Suite("Segment matching: packed words agree with bytes")
struct SegmentMatchingTests {
    /// Every byte value in every position of an otherwise plain word.
    static func words() -> [(word: UInt64, position: Int, byte: UInt8)] {
        var words: [(UInt64, Int, UInt8)] = []
        for position in 0..<8 {
            for byte in UInt8.min...UInt8.max {
                let background: UInt64 = 0x6162_6364_4142_4344  // "DCBAdcba" little-endian
                let cleared = background & ~(0xFF << UInt64(position * 8))
                words.append((cleared | UInt64(byte) << UInt64(position * 8), position, byte))
            }
        }
        return words
    }

    static func bytes(of word: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: word >> UInt64($0 * 8)) }
    }

    @Test("Lowercasing a word lowercases each ASCII capital and nothing else")
    func lowercasedWord() {
        for (word, _, _) in Self.words() {
            let expected = Self.bytes(of: word).map(asciiLowercased)
            #expect(Self.bytes(of: SegmentMatching.asciiLowercasedWord(word)) == expected, "\(word)")
        }
    }

    @Test("A word contains '%' exactly when one of its bytes is '%'")
    func percent() {
        for (word, _, _) in Self.words() {
            let expected = Self.bytes(of: word).contains(UInt8(ascii: "%"))
            #expect(SegmentMatching.containsPercent(word) == expected, "\(word)")
        }
    }

    @Test("Packing raw bytes agrees with packing decoded ones, at every offset and near the buffer's end")
    func packing() {
        let text = Array("users%41profileX1234567".utf8)
        text.withUnsafeBufferPointer { buffer in
            for start in 0...buffer.count {
                for end in start...buffer.count {
                    let range = start..<end
                    let raw = SegmentMatching.packed(buffer, range)
                    let hasPercent = buffer[range].contains(UInt8(ascii: "%"))
                    if range.count <= 7, !hasPercent {
                        let expected = SegmentMatching.packedDecoded(DecodedBytes(buffer, range, decoding: false))
                        #expect(raw == expected, "\(range)")
                        #expect(raw.map { $0 >> 56 } == UInt64(range.count))
                    } else {
                        #expect(raw == nil, "\(range)")
                    }
                }
            }
        }
    }

    @Test("A double is a finite decimal: past Double's range is no number, as an Int's overflow is none")
    func finiteDoubles() throws {
        var builder = RouterBuilder<Void>()
        try builder.add("number", "/d/{v:double}")
        try builder.add("text", "/d/{v}")
        let router = try builder.build()
        let finite: [(String, Double)] = [
            ("1.7976931348623157e308", .greatestFiniteMagnitude),
            ("-1.7976931348623157e308", -.greatestFiniteMagnitude),
            ("1e308", 1e308), ("10e307", 1e308), ("0.0001e312", 1e308), ("1e-999", 0), ("-0", -0.0), ("0e99999", 0),
            ("000000000000000000001e2", 100), (".5", 0.5), ("5.", 5), ("%31%2E%35", 1.5),
        ]
        for (text, value) in finite {
            let match = try #require(try router.match("myapp://d/\(text)"), "\(text)")
            #expect(match.route.name == "number", "\(text)")
            #expect(match.parameters.double("v") == value, "\(text)")
        }
        let digits = String(repeating: "9", count: 400)
        for text in [
            "1e999", "-1e999", "1.8e308", "1.7976931348623159e308", "1000e306", digits, "0.\(digits)e400",
            "1e99999999999999999999",
        ] {
            #expect(try router.match("myapp://d/\(text)")?.route.name == "text", "\(text)")
            #expect(ParameterType.parseDouble(text) == nil, "\(text)")
        }
        for text in ["nan", "inf", "-infinity", "0x1p3", " 1", "1e"] {
            #expect(ParameterType.parseDouble(text) == nil, "\(text)")
            #expect(ParameterValue.string(text).doubleValue == nil, "\(text)")
        }
        #expect(ParameterType.parseDouble("-2.5e3") == -2500)
        // Long mantissas and huge exponents together: the sum decides, whatever the lengths.
        let zeros = String(repeating: "0", count: 100_001)
        #expect(ParameterType.parseDouble("0.\(zeros)1e200000") == nil)
        #expect(ParameterType.parseDouble("0.\(zeros)1e100000") != nil)
        #expect(ParameterType.parseDouble("1\(zeros)e-200000") == 0)
    }

    @Test("A literal's key is the same from its bytes, its capitals, and its escapes")
    func keys() {
        let forms = ["users", "USERS", "%75sers", "%55SERS", "notifications", "NOTIFICATIONS", "%6Eotifications"]
        var keys: [String: Set<UInt64>] = [:]
        for form in forms {
            let bytes = Array(form.utf8)
            let key = bytes.withUnsafeBufferPointer { buffer in
                SegmentMatching.hash(parent: 3, DecodedBytes(buffer, 0..<buffer.count))
            }
            let name = form.removingPercentEncoding?.lowercased() ?? form
            keys[name, default: []].insert(key)
        }
        #expect(keys.count == 2)
        #expect(keys.values.allSatisfy { $0.count == 1 })
        // And the fast path's key for a plain short segment is the same as the general one.
        let plain = Array("UsErS".utf8)
        plain.withUnsafeBufferPointer { buffer in
            let word = SegmentMatching.packed(buffer, 0..<5) ?? 0
            let fast = SegmentMatching.packedKey(parent: 3, SegmentMatching.asciiLowercasedWord(word))
            #expect(keys["users"] == [fast])
        }
    }
}

extension SegmentMatchingTests {
    @Test("Keys of similar literals start their probes all over the table")
    func firstSlotsSpread() {
        // 512 literals like the ones apps use ("r0"…"r511") under 4 parents, in a 4,096-slot table:
        // a key that ignored some bytes, or a shift applied before the multiply, would crowd them.
        let table = ProbingTable<UInt32>(capacityFor: 2_048)
        var used = Set<Int>()
        for parent in 0..<4 {
            for number in 0..<512 {
                let bytes = Array("r\(number)".utf8)
                let key = bytes.withUnsafeBufferPointer { buffer in
                    SegmentMatching.hash(parent: parent, DecodedBytes(buffer, 0..<buffer.count, decoding: false))
                }
                used.insert(table.firstSlot(key))
            }
        }
        // 2,048 keys thrown at random into 4,096 slots land on about 1,610 distinct ones.
        #expect(used.count > 1_400)
        #expect(used.allSatisfy { (0..<4_096).contains($0) })
    }
}

@Suite("Captured ranges are kept inline up to four, exactly as given")
struct CapturedRangesTests {
    static func captured(_ ranges: [Range<Int>]) -> CapturedRanges {
        var copy = ranges
        return copy.withUnsafeMutableBufferPointer { CapturedRanges($0) }
    }

    @Test("Inline, spilled past four, and spilled past 32-bit offsets: every range reads back")
    func readBack() {
        let cases: [[Range<Int>]] = [
            [],
            [0..<0],
            [3..<7, 8..<8, 9..<4_000, 4_001..<4_100],
            [1..<2, 3..<4, 5..<6, 7..<8, 9..<10, 11..<20],
            [0..<1, 2..<(1 << 33)],
            [Int(UInt32.max)..<Int(UInt32.max)],
        ]
        for ranges in cases {
            let captured = Self.captured(ranges)
            #expect(captured.count == ranges.count)
            #expect((0..<ranges.count).map { captured[$0] } == ranges, "\(ranges)")
            #expect(captured.spilled == nil ? ranges.count <= 4 : true)
            // Past the end: an empty range, never a trap.
            #expect(captured[ranges.count] == 0..<0)
            #expect(captured[-1] == 0..<0)
        }
        #expect(Self.captured([1..<2, 3..<4, 5..<6, 7..<8]).spilled == nil)
        #expect(Self.captured([1..<2, 3..<4, 5..<6, 7..<8, 9..<10]).spilled != nil)
        #expect(Self.captured([0..<(1 << 33)]).spilled != nil)
    }
}
