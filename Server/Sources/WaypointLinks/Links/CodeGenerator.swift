/// Unguessable codes for links created without a custom one: 14 characters from 31 that cannot be
/// mistaken for one another when read aloud or retyped (no `0`/`o`, `1`/`l`/`i`), about 69 bits
/// from the system's secure random source.
///
/// ```swift
/// CodeGenerator.make()  // "k7m3xq9fw2hz4c"
/// ```
public enum CodeGenerator {
    static let alphabet = Array("23456789abcdefghjkmnpqrstuvwxyz".unicodeScalars)
    public static let length = 14

    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var code = String.UnicodeScalarView()
        for _ in 0..<length { code.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]) }
        return String(code)
    }

    /// A code of the same shape made from `digest` (16 bytes or more, such as an HMAC) instead of
    /// random bytes: the same digest, the same code. Each half of the first 16 bytes gives 7
    /// characters; 2^64 is some 600 million times 31^7, so every code is as likely as the others
    /// to within one part in 600 million.
    static func make(fromDigest digest: [UInt8]) -> String {
        var code = String.UnicodeScalarView()
        for half in 0..<2 {
            var value = digest.dropFirst(half * 8).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            for _ in 0..<(length / 2) {
                code.append(alphabet[Int(value % UInt64(alphabet.count))])
                value /= UInt64(alphabet.count)
            }
        }
        return String(code)
    }
}
