import Foundation

/// Turns text written by people (in-app messages, push payloads) into link text the strict scanner
/// accepts, by percent-encoding what is unambiguous to encode.
///
/// Encoded: spaces and other white space inside the text, non-ASCII characters (Chinese text, emoji),
/// `"<>^`{|}`, brackets outside the host, a `%` that starts no escape, and a second `#`.
/// Not encoded, so that they still fail with a typed error: backslashes and control characters,
/// which have no safe reading (`https:\\evil.com`).
enum LenientText {
    static func encode(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let bytes = Array(trimmed.utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var seenFragment = false
        var inAuthority = false
        var index = 0
        func escape(_ byte: UInt8) {
            output.append(UInt8(ascii: "%"))
            output.append(hex[Int(byte >> 4)])
            output.append(hex[Int(byte & 0x0F)])
        }
        while index < bytes.count {
            let byte = bytes[index]
            defer { index += 1 }
            if byte == UInt8(ascii: "/"), index >= 2, bytes[index - 1] == UInt8(ascii: "/"),
                bytes[index - 2] == UInt8(ascii: ":")
            {
                inAuthority = true
                output.append(byte)
                continue
            }
            if inAuthority, byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                inAuthority = false
            }
            switch byte {
            case UInt8(ascii: " "), 0x80...,
                UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "^"), UInt8(ascii: "`"),
                UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
                escape(byte)
            case UInt8(ascii: "["), UInt8(ascii: "]"):
                if inAuthority { output.append(byte) } else { escape(byte) }
            case UInt8(ascii: "%"):
                if escapedByte(in: bytes, at: index, end: bytes.count) != nil {
                    output.append(byte)
                } else {
                    escape(byte)
                }
            case UInt8(ascii: "#"):
                if seenFragment { escape(byte) } else { output.append(byte) }
                seenFragment = true
            default:
                output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
