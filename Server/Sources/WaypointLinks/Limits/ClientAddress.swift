import Foundation

/// Who a request comes from, as a rate limit counts clients: the peer's IP address, or — behind a
/// proxy the operator names — the last address the proxy appended to its forwarding header. An IPv6
/// client counts by its /64, since one host commonly holds a whole /64.
///
/// ```swift
/// ClientAddress.key(peer: "2001:db8:1:2:aaaa::1", forwarded: nil)        // "2001:db8:1:2::/64"
/// ClientAddress.key(peer: "10.0.0.2", forwarded: "198.51.100.7, 10.0.0.1") // "10.0.0.1"
/// ```
enum ClientAddress {
    /// - Parameters:
    ///   - peer: the connection's remote IP address, when known.
    ///   - forwarded: the trusted proxy's header value, when the service is configured to read one;
    ///     its last entry is the one the proxy itself added, so a client cannot forge it.
    static func key(peer: String?, forwarded: String?) -> String {
        let address: String
        if let forwarded, let last = forwarded.split(separator: ",").last {
            // Some proxies add the client's port.
            address = Authority.host(last.trimmingCharacters(in: .whitespaces))
        } else {
            address = peer ?? "unknown"
        }
        // IPv4, the common case, as it is; this runs on every visit.
        guard address.utf8.contains(UInt8(ascii: ":")) else { return address }
        return prefix64(address) ?? address.lowercased()
    }

    /// The /64 network of an IPv6 address in any textual form; nil for anything else.
    static func prefix64(_ text: String) -> String? {
        var address = Substring(text.lowercased())
        if address.hasPrefix("["), address.hasSuffix("]") { address = address.dropFirst().dropLast() }
        if let zone = address.firstIndex(of: "%") { address = address[..<zone] }
        // An IPv4 address (or an IPv4-mapped IPv6 one) counts by itself.
        let hasColon = address.utf8.contains(UInt8(ascii: ":"))
        let hasDot = address.utf8.contains(UInt8(ascii: "."))
        guard hasColon, !hasDot else {
            if hasDot, let v4 = address.split(separator: ":").last { return String(v4) }
            return nil
        }
        let halves = address.split(separator: "::", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 1 || halves[1].split(separator: "::", omittingEmptySubsequences: false).count == 1 else {
            return nil
        }
        let head = halves[0].split(separator: ":", omittingEmptySubsequences: true)
        let tail = halves.count > 1 ? halves[1].split(separator: ":", omittingEmptySubsequences: true) : []
        let missing = 8 - head.count - tail.count
        guard missing >= (halves.count > 1 ? 1 : 0), halves.count > 1 || missing == 0 else { return nil }
        let groups = head + Array(repeating: "0", count: missing) + tail
        guard groups.count == 8, groups.allSatisfy({ $0.count <= 4 && UInt16($0, radix: 16) != nil }) else {
            return nil
        }
        let network = groups.prefix(4).map { String(UInt16($0, radix: 16) ?? 0, radix: 16) }
        return network.joined(separator: ":") + "::/64"
    }
}
