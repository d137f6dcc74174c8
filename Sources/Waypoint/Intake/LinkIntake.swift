import Foundation

/// Turns everything that opens the app into a ``DeepLink``: one decoder per source.
///
/// Every decoder returns an ``IntakeResult``; nothing throws past it and nothing is dropped: a
/// failure is `.failure(WaypointError)` with the original input, ready to be reported.
///
/// ```swift
/// var intake = LinkIntake(policy: LinkPolicy(schemes: ["myapp"], associatedDomains: ["example.com"]))
/// intake.notificationRules = [NotificationRule(.present("data.messageId"), link: "/messages/{data.messageId}")]
/// intake.url("myapp://messages/1")                       // .link(…, source .urlScheme)
/// intake.url("https://example.com/books/42")             // .link(…, source .universalLink)
/// intake.notification(NotificationResponseSnapshot(userInfo: ["aps": [:], "data": ["messageId": "1"]]))
/// // .link("/messages/1", source .notification)
/// ```
public struct LinkIntake: Sendable {
    /// Classifies web links (associated or not) and limits parsing.
    public var policy: LinkPolicy
    /// Payload keys that hold a link, looked up at the top level and under `data`.
    public var linkKeys: [String]
    /// Push providers whose payload shapes are read (``NotificationProvider/braze``…), after
    /// ``linkKeys`` and before ``notificationRules``, in this order. When one push matches several,
    /// the rule is fixed: a marker of any of them makes it that provider's own push (not routed);
    /// otherwise the first listed whose places hold a link gives it. `waypoint lint` warns for each
    /// pair one push could match both of (`provider-order`).
    public var notificationProviders: [NotificationProvider]
    /// Rules for payloads without a link key, tried in order after the keys and the providers: the
    /// first that applies opens the push. One whose link needs a value the payload lacks gives way to
    /// a later rule of the same condition (an optional value, written as two rules); otherwise its
    /// `missingValue` is the error, so a push a rule claims never opens another rule's screen.
    ///
    /// ```swift
    /// intake.notificationRules = [
    ///     NotificationRule(.present("book_id"), link: "/books/{book_id}?tab={tab}"),
    ///     NotificationRule(.present("book_id"), link: "/books/{book_id}"),
    /// ]
    /// // {"book_id": "42", "tab": "reviews"} → /books/42?tab=reviews; {"book_id": "42"} → /books/42
    /// ```
    public var notificationRules: [NotificationRule]
    /// Notification categories, so custom actions can be told apart.
    public var notificationCategories: NotificationCategoryCatalog
    /// Where "open notification settings" from the Settings app leads (`/settings/notifications`).
    public var notificationSettingsLink: LinkTemplate?
    /// Quick action type → link template filled from its `userInfo`.
    public var shortcutRoutes: [String: LinkTemplate]
    /// User activity type (Handoff, Spotlight) → link template filled from its `userInfo`.
    public var activityRoutes: [String: LinkTemplate]
    /// Web messages accepted, by handler name.
    public var webMessages: [WebMessageRoute]
    /// Origins allowed to post web messages (https only); the associated domains when empty.
    public var webOrigins: [DomainPattern]
    /// How deep a payload may nest.
    public var maximumPayloadDepth: Int

    /// An intake with every value defaulted but the policy.
    public init(
        policy: LinkPolicy,
        linkKeys: [String] = ["deeplink", "url", "link"],
        notificationProviders: [NotificationProvider] = [],
        notificationRules: [NotificationRule] = [],
        notificationCategories: NotificationCategoryCatalog = NotificationCategoryCatalog(),
        notificationSettingsLink: LinkTemplate? = nil,
        shortcutRoutes: [String: LinkTemplate] = [:],
        activityRoutes: [String: LinkTemplate] = [:],
        webMessages: [WebMessageRoute] = [],
        webOrigins: [DomainPattern] = [],
        maximumPayloadDepth: Int = PayloadValue.defaultMaxDepth
    ) {
        self.policy = policy
        self.linkKeys = linkKeys
        self.notificationProviders = notificationProviders
        self.notificationRules = notificationRules
        self.notificationCategories = notificationCategories
        self.notificationSettingsLink = notificationSettingsLink
        self.shortcutRoutes = shortcutRoutes
        self.activityRoutes = activityRoutes
        self.webMessages = webMessages
        self.webOrigins = webOrigins
        self.maximumPayloadDepth = maximumPayloadDepth
    }

    /// Checks what the intake was given, so a mistake fails when the app starts instead of when a
    /// link arrives: the policy (``LinkPolicy/check()``), the braces of every link template (the
    /// notification rules', the categories' actions', the settings link, the quick actions', the
    /// activities' and the web messages', in that order) and the web origins. Call it where the
    /// intake is made; an intake a manifest makes is checked by the manifest.
    ///
    /// ```swift
    /// var intake = LinkIntake(policy: LinkPolicy(schemes: ["myapp"]))
    /// intake.shortcutRoutes = ["com.example.new": "/listings/{kind"]
    /// try intake.check()
    /// // WaypointError invalidConfiguration: "The quick action 'com.example.new': The link template
    /// // '/listings/{kind': a '{' is never closed; …"
    /// ```
    ///
    /// - Throws: ``WaypointError``: `invalidScheme` or `invalidHost` for the policy or an origin,
    ///   `invalidConfiguration` for a template, naming where it is given.
    public func check() throws(WaypointError) {
        func check(_ template: LinkTemplate?, _ place: @autoclosure () -> String) throws(WaypointError) {
            do {
                try template?.check()
            } catch {
                throw WaypointError(error.code, input: error.input, message: "\(place()): \(error.message)")
            }
        }
        try policy.check()
        for (index, rule) in notificationRules.enumerated() {
            try check(rule.link, "The notification rule \(index + 1) of \(notificationRules.count)")
        }
        for category in notificationCategories.categories {
            for action in category.actions {
                if case .link(let template) = action.target {
                    try check(template, "The action '\(action.id)' of the category '\(category.id)'")
                }
            }
        }
        try check(notificationSettingsLink, "The notification settings link")
        for type in Array(shortcutRoutes.keys).stablySorted() {
            try check(shortcutRoutes[type], "The quick action '\(type)'")
        }
        for type in Array(activityRoutes.keys).stablySorted() {
            try check(activityRoutes[type], "The activity '\(type)'")
        }
        for message in webMessages { try check(message.link, "The web message '\(message.name)'") }
        for origin in webOrigins {
            if let problem = DomainPattern.problem(origin.description) {
                throw WaypointError(.invalidHost, input: origin.description, message: "The web origins: \(problem)")
            }
        }
    }

    /// A URL opened by the system: a custom scheme, or a web link (a universal link when it is
    /// `https` on an associated domain; otherwise a web link for policy to pass through).
    ///
    /// Only for URLs the system hands the app (`scene(_:openURLContexts:)`, `onOpenURL`,
    /// `application(_:open:)`): there an `https` link on an associated domain can only have come
    /// as a universal link the system verified. Text from anywhere else goes through ``text(_:)``.
    public func url(_ url: URL) -> IntakeResult { self.url(url.absoluteString) }

    /// A URL as text, parsed strictly.
    public func url(_ text: String) -> IntakeResult {
        result { () throws(WaypointError) in
            var link = try parse(text, strict: true, source: .urlScheme)
            if link.isWeb { link.source = systemDeliveredSource(of: link) }
            return .link(link, identity: DeliveryIdentity.url(link))
        }
    }

    /// Text from people (a link in an in-app message), parsed leniently.
    public func text(_ text: String) -> IntakeResult {
        result { () throws(WaypointError) in
            let link = try parse(text, strict: false, source: .text)
            return .link(link, identity: DeliveryIdentity.text(link))
        }
    }

    /// The source of a web link the system delivered to a URL or browsing-web callback: the system
    /// opens the app for `http` or `https` on an associated domain only after verifying the domain's
    /// association file, so such a link is a universal link; any other web link is `.web`, for
    /// policy to pass through.
    func systemDeliveredSource(of link: DeepLink) -> LinkSource {
        policy.isUniversalLink(link) ? .universalLink : .web
    }

    /// Runs a decoder, turning its error into `.failure`.
    func result(_ body: () throws(WaypointError) -> IntakeResult) -> IntakeResult {
        do { return try body() } catch { return .failure(error) }
    }

    /// Parses link text within the policy's limits, wrapping the link's error as ``WaypointError/Code/invalidLink``.
    func parse(
        _ text: String,
        strict: Bool,
        source: LinkSource,
        payload: PayloadValue? = nil
    ) throws(WaypointError) -> DeepLink {
        do {
            var link =
                strict
                ? try DeepLink(text, source: source, limits: policy.limits)
                : try DeepLink(text: text, source: source, limits: policy.limits)
            link.payload = payload
            return link
        } catch {
            throw WaypointError(
                .invalidLink,
                input: payload?.description ?? text,
                offset: payload == nil ? error.offset : nil,
                underlyingCode: error.code,
                message: error.message
            )
        }
    }

    /// Converts a Foundation payload within the depth limit.
    func payload(_ value: Any) throws(WaypointError) -> PayloadValue {
        try PayloadValue(any: value, maxDepth: maximumPayloadDepth)
    }

    /// Fills a template and appends the payload's other scalar members as query items, sorted.
    func fill(
        _ template: LinkTemplate,
        from payload: PayloadValue,
        appendingExtras: Bool
    ) throws(WaypointError) -> String {
        var text = try template.fill(from: payload)
        guard appendingExtras else { return text }
        let used = Set(template.placeholders)
        let extras = payload.objectValue.filter { !used.contains($0.key) && $0.value.text != nil }.map { $0 }
            .stablySorted { $0.key < $1.key }
        guard !extras.isEmpty else { return text }
        let query = extras.map { key, value in
            percentEncode(key, allowed: .queryComponent) + "="
                + percentEncode(value.text ?? "", allowed: .queryComponent)
        }
        text += (text.contains("?") ? "&" : "?") + query.joined(separator: "&")
        return text
    }
}
