/// A `host[:port]` as a `Host` header or a proxy's forwarding header gives it.
enum Authority {
    /// The host without the port: `links.example.com:8080` → `links.example.com`,
    /// `192.0.2.7:5678` → `192.0.2.7`, `[2001:db8::1]:443` → `2001:db8::1`; a bare IPv6 address
    /// (more than one colon, no brackets) is all host.
    static func host(_ authority: String) -> String {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        let colons = authority.utf8.lazy.filter { $0 == UInt8(ascii: ":") }.count
        if colons == 1, let colon = authority.firstIndex(of: ":") { return String(authority[..<colon]) }
        return authority
    }
}
