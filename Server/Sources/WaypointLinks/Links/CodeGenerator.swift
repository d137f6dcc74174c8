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
}
