import Foundation

/// Turns text written by people (in-app messages, push payloads) into link text the strict scanner
/// accepts, by percent-encoding what is unambiguous to encode.
///
/// Encoded: spaces and other white space inside the text, non-ASCII characters (Chinese text, emoji),
/// `"<>^`{|}`, brackets outside the host, a `%` that starts no escape, and a second `#`.
/// Not encoded, so that they still fail with a typed error: backslashes and control characters,
/// which have no safe reading (`https:\\evil.com`).
enum LenientText {
    /// What is trimmed around the text: white space, and the invisible marks a message composer
    /// leaves around a link (a right-to-left one wraps it in RLM or LRM), which sit outside it as
    /// white space does. Inside a link, RLM, LRM and ALM are refused with the other bidirectional
    /// characters; a zero-width space, a word joiner or a BOM is encoded, as any non-ASCII character.
    static let edges = CharacterSet.whitespacesAndNewlines.union(
        CharacterSet(charactersIn: "\u{061C}\u{200B}\u{200E}\u{200F}\u{2060}\u{FEFF}")
    )

    /// The text without ``edges``, and how many of its UTF-8 bytes went in front (a bidirectional
    /// character's offset counts in the text as given).
    static func trimmed(_ text: String) -> (text: String, front: Int) {
        guard let first = text.rangeOfCharacter(from: kept) else { return ("", text.utf8.count) }
        return (text.trimmingCharacters(in: edges), text.utf8.distance(from: text.startIndex, to: first.lowerBound))
    }

    /// Everything but ``edges``.
    private static let kept = edges.inverted

    /// The UTF-8 offsets of the first bidirectional formatting character in `text`, if any: a link
    /// may not carry one, and it is named as such before encoding turns it into escapes.
    static func firstBidiControl(in text: String) -> Range<Int>? {
        var check = UTF8Check()
        var start = 0
        var offset = 0
        for byte in text.utf8 {
            if check.isComplete { start = offset }
            offset += 1
            // A Swift string is well-formed UTF-8: every byte is accepted.
            _ = check.accept(byte)
            if check.endedInBidiControl { return start..<offset }
        }
        return nil
    }

    /// Encodes trimmed text (see ``trimmed(_:)``).
    static func encode(_ trimmed: String) -> String {
        let bytes = Array(trimmed.utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var seenFragment = false
        // Brackets stand unencoded only in the link's own authority (an IPv6 host): after its
        // scheme's `://`, never after one further on (`myapp://open?next=https://[::1]/x`).
        let authority = authorityStart(bytes)
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
            if index == authority { inAuthority = true }
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

    /// Where the authority starts: after `scheme://` at the start of the text, else nowhere.
    private static func authorityStart(_ bytes: [UInt8]) -> Int? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
            bytes[..<colon].allSatisfy({ LinkScanner.isSchemeByte($0) }),
            bytes.count > colon + 2, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        else { return nil }
        return colon + 3
    }
}
