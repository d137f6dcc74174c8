extension LinkIntake {
    /// A web view's script message, accepted only from the main frame of an allowed `https` origin
    /// at the default port, and only under an accepted name. The body is read only after those
    /// checks pass, so a refused message costs nothing however large its body.
    ///
    /// ```swift
    /// intake.webMessages = [WebMessageRoute(name: "openLink")]
    /// intake.webMessage(WebMessageSnapshot(name: "openLink", body: "/books/42", origin: "https://example.com"))
    /// // .link("/books/42", source .webMessage)
    /// ```
    public func webMessage(_ message: some WebMessageRepresentable) -> IntakeResult {
        result { () throws(WaypointError) in
            let origin =
                "\(message.originScheme)://\(message.originHost)"
                + (message.originPort > 0 ? ":\(message.originPort)" : "")
            guard message.isMainFrame else {
                throw WaypointError(
                    .notMainFrame,
                    input: origin,
                    message:
                        "A web message '\(message.name)' came from an embedded frame of \(origin); only the main frame may post."
                )
            }
            let allowed = webOrigins.isEmpty ? policy.associatedDomains : webOrigins
            let port = message.originPort > 0 ? message.originPort : nil
            guard
                LinkPolicy.isSecureOrigin(
                    scheme: message.originScheme,
                    host: message.originHost,
                    port: port,
                    on: allowed
                )
            else {
                throw WaypointError(
                    .untrustedOrigin,
                    input: origin,
                    message:
                        "A web message '\(message.name)' came from \(origin), which is not an allowed https origin at the default port."
                )
            }
            if let refusal = refusedOriginHost(message.originHost) {
                throw WaypointError(
                    .untrustedOrigin,
                    input: origin,
                    message:
                        "A web message '\(message.name)' came from \(origin), and \(refusal): it may not post links."
                )
            }
            guard let route = webMessages.first(where: { $0.name == message.name }) else {
                throw WaypointError(
                    .unknownMessage,
                    input: message.name,
                    message: "No web message is accepted under the name '\(message.name)'."
                )
            }
            let body = try payload(message.body)
            if let template = route.link {
                let text = try fill(template, from: body, appendingExtras: false)
                return .link(
                    try parse(text, strict: true, source: .webMessage, payload: body),
                    identity: DeliveryIdentity.webMessage(text)
                )
            }
            let text: String? =
                if case .string(let text) = body { text } else { linkKeys.lazy.compactMap { body[$0]?.text }.first }
            guard let text else {
                // What the body holds instead, so the page's author sees what to change.
                var held = body.kind
                for key in linkKeys { if let value = body[key] { held += ", its '\(key)' \(value.kind)" } }
                let expected =
                    linkKeys.isEmpty
                    ? "post the link's text (the intake has no link keys to read an object by)"
                    : "post the link's text, or an object whose \(linkKeys.joined(separator: ", ")) member holds it"
                throw WaypointError(
                    .noLink,
                    input: body.description,
                    message: "The web message '\(message.name)' carries no link: its body is \(held); \(expected)."
                )
            }
            let link = try parse(text, strict: false, source: .webMessage, payload: body)
            return .link(link, identity: DeliveryIdentity.webMessage(link.string))
        }
    }

    /// Why a page on `host` may not post links though its origin is allowed: the policy denies the
    /// host, or leaves it to the system. `*.example.com` allows every subdomain, but a page the app
    /// would not open a link to may not drive it either. `nil` when neither. (`waypoint lint` asks it
    /// of the manifest's `webView.origins`.)
    package func refusedOriginHost(_ host: String) -> String? {
        if policy.deniedHosts.contains(where: { $0.matches(host) }) { return "the policy denies the host '\(host)'" }
        if policy.passThroughHosts.contains(where: { $0.matches(host) }) {
            return "the policy leaves the host '\(host)' to the system"
        }
        return nil
    }
}
