extension LinkIntake {
    /// A notification response: the tap (default action), a custom action, or a dismissal.
    ///
    /// The tap reads the payload's link: a ``linkKeys`` member at the top level or under `data`
    /// (parsed leniently: payloads are written by people), else the first of the
    /// ``notificationProviders`` whose places hold one, else the first ``notificationRules`` that
    /// applies and whose link the payload fills. An action of the app's ``notificationCategories`` does what its
    /// ``NotificationActionTarget`` says; any other action is a button a provider declared in the
    /// payload when it sent the push, and opens that button's link.
    ///
    /// ```swift
    /// intake.notification(NotificationResponseSnapshot(userInfo: ["deeplink": "myapp://books/42"]))
    /// // .link("myapp://books/42", source .notification)
    /// ```
    public func notification(_ response: some NotificationResponseRepresentable) -> IntakeResult {
        readNotification(response).result
    }

    /// What ``notification(_:)`` makes of `response`, and what in the intake read it: the app's
    /// key, a provider's place or button, a rule, a category's action, or a provider's marker.
    /// `waypoint resolve --notification` prints it as the reason a push opens what it does.
    ///
    /// The first of these that applies decides:
    /// 1. A dismissal is reported; nothing opens.
    /// 2. A tap (the default action) is refused when a provider marks the push its own; otherwise
    ///    it opens the payload's link (`link(fromPayload:readBy:)`: app keys, providers, rules).
    /// 3. An action of the push's category, when the app declared that category, does what its
    ///    target says.
    /// 4. A button a provider put in the payload opens its link (a marked push is refused), or is
    ///    an action when it opens nothing.
    /// 5. An action of that id in another of the app's categories does what its target says.
    /// 6. Anything else is `.unmappedAction`.
    package func readNotification(_ response: some NotificationResponseRepresentable) -> NotificationReading {
        var reader: NotificationReader?
        let outcome = result { () throws(WaypointError) -> IntakeResult in
            let payload = try payload(response.userInfo)
            let action = response.actionIdentifier
            let invocation = NotificationActionInvocation(
                actionIdentifier: action,
                categoryIdentifier: response.categoryIdentifier,
                requestIdentifier: response.requestIdentifier,
                payload: payload
            )
            // One identity per tap: the same response reaches the app through two callbacks on a
            // cold start (DeliveryLedger has the rule).
            let identity = DeliveryIdentity.notification(
                request: response.requestIdentifier,
                action: action,
                payload: payload.description
            )
            func opened(_ link: DeepLink, by found: NotificationReader?) -> IntakeResult {
                reader = found
                var link = link
                // The window that should show the link, when the app has several.
                link.targetContentIdentifier = response.targetContentIdentifier
                return .link(link, identity: identity)
            }
            // A provider's marker stops what would read the payload's link or a provider's button; an
            // action the app declared does what the app says (Batch's landings are visible pushes
            // whose buttons come from the app's categories).
            func refuseOwnPush() throws(WaypointError) {
                for provider in notificationProviders {
                    guard let marker = provider.internalMarker(in: payload) else { continue }
                    reader = .ownPush(provider, marker)
                    throw WaypointError(
                        .notForRouting,
                        input: payload.description,
                        message: "The notification is \(provider.title)'s own push (\(marker)): not for routing."
                    )
                }
            }
            if action == NotificationActionIdentifier.dismiss { return .dismissed(invocation) }
            if action == NotificationActionIdentifier.default {
                try refuseOwnPush()
                return opened(try link(fromPayload: payload, readBy: &reader), by: reader)
            }
            func perform(_ declared: NotificationAction) throws(WaypointError) -> IntakeResult {
                reader = .categoryAction(category: response.categoryIdentifier, action: action)
                switch declared.target {
                case .handler:
                    return .action(invocation)
                case .payloadLink:
                    try refuseOwnPush()
                    return opened(try link(fromPayload: payload, readBy: &reader), by: reader)
                case .link(let template):
                    let text = try fill(template, from: payload, appendingExtras: false)
                    return opened(try parse(text, strict: true, source: .notification, payload: payload), by: reader)
                }
            }
            // The action of one of the app's categories. In a category the app did not declare, a
            // provider's button comes before an app action of the same id elsewhere: a provider's
            // "report" button must not run the app's "report".
            let declaredCategory = notificationCategories.categories.contains { $0.id == response.categoryIdentifier }
            if declaredCategory, let declared = notificationCategories.action(action, in: response.categoryIdentifier) {
                return try perform(declared)
            }
            // A button the provider put in the payload when it sent the push: its category is the
            // provider's, not one the app declared.
            for provider in notificationProviders {
                guard let buttons = provider.buttons,
                    let button = buttons.button(action, in: payload, taps: provider.links)
                else { continue }
                try refuseOwnPush()
                reader = .button(provider, action: action, link: button.place)
                guard let text = button.link else {
                    // A button that opens nothing ("Open app", "Like") is the app's to handle, as an
                    // action; with no handler for it the dispatcher reports that, never drops it.
                    var invocation = invocation
                    invocation.providerButton = provider.title
                    return .action(invocation)
                }
                return opened(try parse(text, strict: false, source: .notification, payload: payload), by: reader)
            }
            if !declaredCategory, let declared = notificationCategories.action(action, in: response.categoryIdentifier)
            {
                return try perform(declared)
            }
            let sendTime = notificationProviders.compactMap { provider in
                provider.buttons.map { "\(provider.title)'s buttons at \($0)" }
            }
            throw WaypointError(
                .unmappedAction,
                input: payload.description,
                message: "The notification action '\(action)' of category '\(response.categoryIdentifier)' is in no "
                    + "declared category"
                    + (sendTime.isEmpty
                        ? "." : ", and the payload has no such button (" + sendTime.joined(separator: "; ") + ").")
            )
        }
        return NotificationReading(result: outcome, reader: reader)
    }

    /// "Open settings for notifications", chosen in the system Settings app.
    public func notificationSettings() -> IntakeResult {
        result { () throws(WaypointError) in
            guard let template = notificationSettingsLink else {
                throw WaypointError(
                    .noLink,
                    input: "openSettingsFor",
                    message: "The system asked to show notification settings, but no notificationSettingsLink is set."
                )
            }
            let text = try fill(template, from: .object([:]), appendingExtras: false)
            return .link(
                try parse(text, strict: true, source: .notification),
                identity: DeliveryIdentity.notificationSettings
            )
        }
    }

    /// Whether a payload's link place holds no link: empty or blank text, what a sender's empty
    /// template variable leaves. It counts as absent, so a place read after it (a provider's, a
    /// rule) still opens what the push carries.
    package static func isBlank(_ text: String) -> Bool { !text.contains { !$0.isWhitespace } }

    /// The link a notification payload carries or maps to: the app's keys, then the providers'
    /// places, then the app's rules. `reader` says which, set before the link is parsed, so a link
    /// that fails still names the place it came from.
    func link(
        fromPayload payload: PayloadValue,
        readBy reader: inout NotificationReader?
    ) throws(WaypointError) -> DeepLink {
        // A link key that is there but holds no link text (a number, a list, blank text) is named if
        // nothing opens: "none of the keys" would send the sender looking for a key that is there.
        var unreadable: [String] = []
        for key in linkKeys {
            for keyPath in [key, "data." + key] {
                guard let value = payload[keyPath] else { continue }
                if case .string(let text) = value, !Self.isBlank(text) {
                    reader = .linkKey(keyPath)
                    return try parse(text, strict: false, source: .notification, payload: payload)
                }
                let held: String = if case .string = value { "blank text" } else { value.kind }
                unreadable.append("'\(keyPath)' holds \(held)")
            }
        }
        for provider in notificationProviders {
            for place in provider.links {
                if let text = place.link(in: payload) {
                    reader = .provider(provider, place)
                    return try parse(text, strict: false, source: .notification, payload: payload)
                }
            }
        }
        // The first rule that applies opens the push. One whose link needs a value the payload lacks
        // gives way to a later rule of the same condition (an optional value, written as two rules:
        // `/books/{book_id}?tab={tab}`, then `/books/{book_id}`), never to a rule of another: a push
        // a rule claims (a chat, by its category) must not open another rule's screen.
        var unfilled: NotificationRule?
        for rule in notificationRules where rule.matches(payload) {
            if let unfilled, rule.condition != unfilled.condition { continue }
            if !rule.link.isFilled(by: payload) {
                if unfilled == nil { unfilled = rule }
                continue
            }
            reader = .rule(rule)
            let text = try fill(rule.link, from: payload, appendingExtras: false)
            return try parse(text, strict: true, source: .notification, payload: payload)
        }
        if let unfilled {
            // Filling it throws the value it lacks (`missingValue`), naming the rule.
            reader = .rule(unfilled)
            let text = try fill(unfilled.link, from: payload, appendingExtras: false)
            return try parse(text, strict: true, source: .notification, payload: payload)
        }
        let providers = notificationProviders.map { " " + $0.places + ";" }.joined()
        let keys =
            unreadable.isEmpty
            ? "none of the app's keys (\(linkKeys.joined(separator: ", "))) at the top level or under 'data'"
            : "the app's link key " + unreadable.joined(separator: ", ") + ", not a link's text"
        throw WaypointError(
            .noLink,
            input: payload.description,
            message: "The notification payload has no link: \(keys);\(providers) and no notification rule applies."
        )
    }
}

/// What ``LinkIntake/readNotification(_:)`` made of a notification, and what read it.
package struct NotificationReading: Sendable {
    package let result: IntakeResult
    /// `nil` when nothing read the payload: no link anywhere, an unknown action, a dismissal.
    package let reader: NotificationReader?

    package init(result: IntakeResult, reader: NotificationReader?) {
        self.result = result
        self.reader = reader
    }
}

// `indirect`: most cases carry a whole provider preset; one box a case keeps every copy one word
// (3 KB less machine code for a device; Scripts/measure-core.sh).
/// The part of an intake that decided what a notification opens, said for people.
package indirect enum NotificationReader: Sendable, CustomStringConvertible {
    /// The app's own link key, at this key path (`deeplink`, `data.deeplink`).
    case linkKey(String)
    /// A provider preset's place for the tap's link.
    case provider(NotificationProvider, NotificationProvider.Location)
    /// A button the provider declared in the payload, and where its link was (`nil`: it has none).
    case button(NotificationProvider, action: String, link: String?)
    /// One of the app's notification rules.
    case rule(NotificationRule)
    /// An action of one of the app's notification categories.
    case categoryAction(category: String, action: String)
    /// A provider's marker of its own push.
    case ownPush(NotificationProvider, NotificationProvider.InternalMarker)

    package var description: String {
        switch self {
        case .linkKey(let keyPath): "the app's link key '\(keyPath)'"
        case .provider(let provider, let place): "\(Self.name(provider)): the tap's link at \(place)"
        case .button(let provider, let action, let place?):
            "\(Self.name(provider)): the link of its button '\(action)' at \(place)"
        case .button(let provider, let action, nil):
            "\(Self.name(provider)): its button '\(action)', which carries no link"
        case .rule(let rule):
            switch rule.condition {
            case .present(let keyPath): "the notification rule for '\(rule.link)' (\(keyPath) is present)"
            case .equals(let keyPath, let value): "the notification rule for '\(rule.link)' (\(keyPath) is '\(value)')"
            }
        case .categoryAction(let category, let action): "the app's category '\(category)', action '\(action)'"
        case .ownPush(let provider, let marker): "\(Self.name(provider)): its marker \(marker) of its own pushes"
        }
    }

    /// `the provider braze (Braze)`: the name the manifest uses, and the one people know.
    private static func name(_ provider: NotificationProvider) -> String {
        "the provider \(provider.name)" + (provider.title == provider.name ? "" : " (\(provider.title))")
    }
}
