/// Lowercase hexadecimal: how the stores keep token hashes and how entity tags are written.
///
/// ```swift
/// Hexadecimal.encode([0x0a, 0xff])  // "0aff"
/// Hexadecimal.decode("0aff")        // [0x0a, 0xff]
/// Hexadecimal.decode("0g")          // nil
/// ```
enum Hexadecimal {
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// The bytes, or nil unless the text is pairs of hexadecimal digits.
    static func decode(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }
}

extension String {
    /// `"f".leftPadded(to: 2)` is `"0f"`.
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
