import Foundation
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a webhook may point: an `http` or `https` URL on a public address. A receiver on loopback,
/// a private network, link-local (the cloud metadata address 169.254.169.254) or any other address
/// not reachable from the internet is refused unless `serve --webhook-allow-private`: otherwise
/// whoever holds an admin token could have the service make requests inside its own network. The
/// name is resolved when the webhook is made and again before each delivery, so a name changed to
/// point inside later is caught then.
///
/// ```swift
/// try await WebhookReceiver.check("https://crm.example.com/hooks", allowPrivate: false)  // fine
/// try await WebhookReceiver.check("http://169.254.169.254/latest", allowPrivate: false)  // throws
/// ```
enum WebhookReceiver {
    static let maxURLLength = 2_048

    /// - Throws: ``LinkServiceError`` `invalidRequest` naming what to change.
    static func check(_ text: String, allowPrivate: Bool) async throws(LinkServiceError) {
        guard text.utf8.count <= maxURLLength else {
            throw LinkServiceError(.invalidRequest, "'url' is over \(maxURLLength) bytes.")
        }
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = url.host, !host.isEmpty
        else {
            throw LinkServiceError(
                .invalidRequest,
                "'url' is an http or https URL such as https://crm.example.com/hooks/links; '\(text)' is not."
            )
        }
        guard url.user == nil, url.password == nil else {
            throw LinkServiceError(.invalidRequest, "'url' may not hold a user name or password; '\(text)' does.")
        }
        try await checkAddresses(of: host, allowPrivate: allowPrivate)
    }

    /// The address to connect to for `host`, once every one it resolves to is checked. A
    /// delivery connects to this very address (``WebhookDeliverer``), so a name that answers a public
    /// address here and a private one a moment later (DNS rebinding) gains nothing.
    ///
    /// - Throws: ``LinkServiceError`` `invalidRequest` when `host` does not resolve or any of its
    ///   addresses is not public (and private ones are not allowed).
    @discardableResult
    static func checkAddresses(of host: String, allowPrivate: Bool) async throws(LinkServiceError) -> String {
        let addresses = await resolve(unbracketed(host))
        guard let chosen = preferred(addresses) else {
            throw LinkServiceError(.invalidRequest, "The receiver's host '\(host)' does not resolve to an address.")
        }
        if !allowPrivate, let inside = addresses.first(where: { !isPublic($0) }) {
            throw LinkServiceError(
                .invalidRequest,
                "The receiver's host '\(host)' is at \(describe(inside)), a loopback, private or link-local "
                    + "address; give a public receiver, or run serve with --webhook-allow-private."
            )
        }
        return describe(chosen)
    }

    /// A URL's host as a resolver takes it: an IPv6 literal without its brackets (`[::1]` is `::1`).
    static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// The address a try connects to: an IPv4 one when there is one, since a try connects to one
    /// address alone, and a receiver that listens on IPv4 only (most do, and "localhost" may list
    /// ::1 first) is then reached.
    static func preferred(_ addresses: [[UInt8]]) -> [UInt8]? {
        addresses.first { $0.count == 4 } ?? addresses.first
    }

    /// The host's addresses (4 or 16 bytes each); empty when it does not resolve. `getaddrinfo`
    /// blocks, so it runs on NIO's thread pool.
    static func resolve(_ host: String) async -> [[UInt8]] {
        (try? await NIOThreadPool.singleton.runIfActive { lookUp(host) }) ?? []
    }

    private static func lookUp(_ host: String) -> [[UInt8]] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &result) == 0, let first = result else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [[UInt8]] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let info = next {
            if let address = info.pointee.ai_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                        addresses.append(withUnsafeBytes(of: ipv4.pointee.sin_addr) { Array($0) })
                    }
                case AF_INET6:
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                        addresses.append(withUnsafeBytes(of: ipv6.pointee.sin6_addr) { Array($0) })
                    }
                default:
                    break
                }
            }
            next = info.pointee.ai_next
        }
        return addresses
    }

    /// Whether an address is reachable from the internet: not unspecified, loopback, private
    /// (RFC 1918, unique local), shared (carrier-grade NAT), link-local, benchmarking, documentation,
    /// multicast or reserved; an IPv4 address inside IPv6 (mapped, translated, NAT64, 6to4) is
    /// judged as the IPv4 one. For IPv6, only global unicast (`2000::/3`) is public: a list of what
    /// is not would miss the next form that reaches a local address.
    static func isPublic(_ address: [UInt8]) -> Bool {
        if address.count == 4 { return isPublicIPv4(address) }
        guard address.count == 16 else { return false }
        let zeros = { (count: Int) in [UInt8](repeating: 0, count: count) }
        let embeddingPrefixes: [[UInt8]] = [
            zeros(10) + [0xFF, 0xFF],  // ::ffff:0:0/96, mapped
            zeros(8) + [0xFF, 0xFF, 0, 0],  // ::ffff:0:0:0/96, translated (SIIT)
            [0x00, 0x64, 0xFF, 0x9B] + zeros(8),  // 64:ff9b::/96, NAT64
        ]
        if embeddingPrefixes.contains(Array(address.prefix(12))) { return isPublicIPv4(Array(address.suffix(4))) }
        let (first, second) = (address[0], address[1])
        if first == 0x20 && second == 0x02 { return isPublicIPv4(Array(address[2..<6])) }  // 2002::/16, 6to4
        // Everything outside 2000::/3: ::, ::1, ::a.b.c.d, local NAT64, unique and link local, multicast.
        guard first & 0xE0 == 0x20 else { return false }
        // 2001::/23, protocol assignments: Teredo (2001::/32, a tunnel to an IPv4 address), benchmarking.
        if first == 0x20 && second == 0x01 && address[2] & 0xFE == 0 { return false }
        // 2001:db8::/32 and 3fff::/20, documentation
        if first == 0x20 && second == 0x01 && address[2] == 0x0D && address[3] == 0xB8 { return false }
        if first == 0x3F && second == 0xFF && address[2] & 0xF0 == 0 { return false }
        return true
    }

    private static func isPublicIPv4(_ address: [UInt8]) -> Bool {
        let (a, b, c) = (address[0], address[1], address[2])
        switch a {
        case 0, 10, 127: return false
        case 100 where b & 0xC0 == 64: return false  // 100.64.0.0/10, shared
        case 169 where b == 254: return false  // link-local, cloud metadata
        case 172 where b & 0xF0 == 16: return false  // 172.16.0.0/12
        case 192 where b == 168: return false
        case 192 where b == 0 && (c == 0 || c == 2): return false  // 192.0.0.0/24 protocol assignments, 192.0.2.0/24
        case 198 where b & 0xFE == 18: return false  // 198.18.0.0/15, benchmarking
        case 198 where b == 51 && c == 100, 203 where b == 0 && c == 113: return false  // documentation
        case 224...255: return false  // multicast, reserved, broadcast
        default: return true
        }
    }

    static func describe(_ address: [UInt8]) -> String {
        if address.count == 4 { return address.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: address.count, by: 2).map {
            String(UInt16(address[$0]) << 8 | UInt16(address[$0 + 1]), radix: 16)
        }.joined(separator: ":")
    }
}
