/// A pattern's only shape kept as one 32-bit descriptor per segment, pointing into the pattern's
/// own UTF-8 text, instead of an array of ``PatternSegment`` (24 bytes each, plus a second array
/// header and allocation): about 80 bytes less for every route a router keeps.
///
/// The parser makes one when the pattern has no optional group and no percent-escaped literal, so
/// every literal and parameter name is a run of the text as written; otherwise the pattern keeps
/// the segments.
struct CompactShape: Sendable, Hashable {
    /// Bits 0–2 the kind, 3–17 where the text starts (UTF-8 offset), 18–31 its length.
    private let descriptors: [UInt32]

    private enum Kind: UInt32 {
        case literal, wildcard, catchAll, string, int, uuid, bool, double

        init(_ segment: PatternSegment) {
            switch segment {
            case .literal: self = .literal
            case .wildcard: self = .wildcard
            case .catchAll: self = .catchAll
            case .parameter(_, .string): self = .string
            case .parameter(_, .int): self = .int
            case .parameter(_, .uuid): self = .uuid
            case .parameter(_, .bool): self = .bool
            case .parameter(_, .double): self = .double
            }
        }

        /// The parameter's type, for the parameter kinds.
        var parameterType: ParameterType? {
            switch self {
            case .string: .string
            case .int: .int
            case .uuid: .uuid
            case .bool: .bool
            case .double: .double
            case .literal, .wildcard, .catchAll: nil
            }
        }
    }

    private static let maximumStart = 1 << 15
    private static let maximumLength = 1 << 14

    init(_ descriptors: [UInt32]) {
        self.descriptors = descriptors
    }

    /// The descriptor of `segment`, whose text as written is the UTF-8 `range` of the pattern
    /// (for a literal its bytes, for a parameter its name); `nil` when an offset does not fit.
    static func descriptor(_ segment: PatternSegment, range: Range<Int>) -> UInt32? {
        let kind = Kind(segment)
        guard range.lowerBound >= 0, range.lowerBound < maximumStart, range.count < maximumLength else { return nil }
        return kind.rawValue | UInt32(range.lowerBound) << 3 | UInt32(range.count) << 18
    }

    /// Calls `body` with each segment as ``SegmentKey``, literal bytes read from `text`'s UTF-8.
    func forEachKey(in bytes: UnsafeBufferPointer<UInt8>, _ body: (SegmentKey) -> Void) {
        for descriptor in descriptors {
            let start = Int(descriptor >> 3 & 0x7FFF)
            switch Kind(rawValue: descriptor & 7) ?? .literal {
            case .literal:
                body(.literal(UnsafeBufferPointer(rebasing: bytes[start..<(start + Int(descriptor >> 18))])))
            case .wildcard: body(.wildcard)
            case .catchAll: body(.catchAll)
            case let kind: body(.parameter(kind.parameterType ?? .string))
            }
        }
    }

    /// The first segment's text when it is a literal, read from the text it points into.
    func firstLiteral(in text: String) -> String? {
        guard let descriptor = descriptors.first, descriptor & 7 == Kind.literal.rawValue else { return nil }
        return Self.text(of: descriptor, in: text.utf8)
    }

    /// The segments again, read from the text they point into.
    func segments(in text: String) -> [PatternSegment] {
        descriptors.map { descriptor in
            let string = Self.text(of: descriptor, in: text.utf8)
            switch Kind(rawValue: descriptor & 7) ?? .literal {
            case .literal: return .literal(string)
            case .wildcard: return .wildcard
            case .catchAll: return .catchAll
            case let kind: return .parameter(name: string, type: kind.parameterType ?? .string)
            }
        }
    }

    /// The run of the pattern's text a descriptor points at: a literal's bytes or a parameter's name.
    private static func text(of descriptor: UInt32, in utf8: String.UTF8View) -> String {
        let lower = utf8.index(utf8.startIndex, offsetBy: Int(descriptor >> 3 & 0x7FFF))
        return String(decoding: utf8[lower..<utf8.index(lower, offsetBy: Int(descriptor >> 18))], as: UTF8.self)
    }
}

/// What a router needs of a segment to build its trie: a literal's bytes, or the kind of
/// segment. Handed out without making strings or arrays (``RoutePattern/forEachKey(ofExpansion:_:)``).
enum SegmentKey {
    case literal(UnsafeBufferPointer<UInt8>)
    case parameter(ParameterType)
    case wildcard
    case catchAll
}
