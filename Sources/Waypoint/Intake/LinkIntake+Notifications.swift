extension LinkIntake {
    /// A notification response: the tap (default action), a custom action, or a dismissal.
    ///
    /// The tap reads the payload's link: a ``linkKeys`` member at the top level or under `data`
    /// (parsed leniently: payloads are written by people), else the first ``notificationRules`` that
    /// applies. A custom action does what its ``NotificationActionTarget`` says.
    public func notification(_ response: some NotificationResponseRepresentable) -> IntakeResult {
        result { () throws(WaypointError) in
            let payload = try payload(response.userInfo)
            let invocation = NotificationActionInvocation(
                actionIdentifier: response.actionIdentifier,
                categoryIdentifier: response.categoryIdentifier,
                requestIdentifier: response.requestIdentifier,
                payload: payload
            )
            // One identity per tap: the same response reaches the app through two callbacks on a
            // cold start (DeliveryLedger has the rule).
            let identity =
                response.requestIdentifier.isEmpty
                ? DeliveryLedger.notificationPayloadIdentity(
                    payload: payload.description,
                    action: response.actionIdentifier
                )
                : DeliveryLedger.notificationIdentity(
                    request: response.requestIdentifier,
                    action: response.actionIdentifier
                )
            // The window that should show the link, when the app has several.
            let target = response.targetContentIdentifier
            func targeted(_ link: DeepLink) -> DeepLink {
                var link = link
                link.targetContentIdentifier = target
                return link
            }
            if response.actionIdentifier != NotificationActionIdentifier.dismiss {
                try refuseInternalPush(payload)
            }
            switch response.actionIdentifier {
            case NotificationActionIdentifier.dismiss:
                return .dismissed(invocation)
            case NotificationActionIdentifier.default:
                return .link(targeted(try link(fromPayload: payload)), identity: identity)
            default:
                guard
                    let action = notificationCategories.action(
                        response.actionIdentifier,
                        in: response.categoryIdentifier
                    )
                else {
                    // A provider's own button (its category is the provider's, not the app's).
                    for provider in notificationProviders {
                        if let text = provider.buttons?.link(in: payload, action: response.actionIdentifier) {
                            let link = try parse(text, strict: false, source: .notification, payload: payload)
                            return .link(targeted(link), identity: identity)
                        }
                    }
                    throw WaypointError(
                        .unmappedAction,
                        input: payload.description,
                        message: "The notification action '\(response.actionIdentifier)' of category "
                            + "'\(response.categoryIdentifier)' is in no declared category."
                    )
                }
                switch action.target {
                case .handler:
                    return .action(invocation)
                case .payloadLink:
                    return .link(targeted(try link(fromPayload: payload)), identity: identity)
                case .link(let template):
                    let text = try fill(template, from: payload, appendingExtras: false)
                    return .link(
                        targeted(try parse(text, strict: true, source: .notification, payload: payload)),
                        identity: identity
                    )
                }
            }
        }
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
            return .link(try parse(text, strict: true, source: .notification), identity: "notification-settings")
        }
    }

    /// The link a notification payload carries or maps to: the app's keys, then the providers'
    /// places, then the app's rules.
    func link(fromPayload payload: PayloadValue) throws(WaypointError) -> DeepLink {
        for key in linkKeys {
            for keyPath in [key, "data." + key] {
                if case .string(let text) = payload[keyPath] {
                    return try parse(text, strict: false, source: .notification, payload: payload)
                }
            }
        }
        for provider in notificationProviders {
            if let text = provider.link(in: payload) {
                return try parse(text, strict: false, source: .notification, payload: payload)
            }
        }
        for rule in notificationRules where rule.matches(payload) {
            let text = try fill(rule.link, from: payload, appendingExtras: false)
            return try parse(text, strict: true, source: .notification, payload: payload)
        }
        let providers = notificationProviders.map { " " + $0.places + ";" }.joined()
        throw WaypointError(
            .noLink,
            input: payload.description,
            message: "The notification payload has no link (\(linkKeys.joined(separator: ", ")), at the top level "
                + "or under 'data';\(providers) and no notification rule applies."
        )
    }
}

extension LinkIntake {
    /// Throws ``WaypointError/Code/notForRouting`` for a provider's own push.
    func refuseInternalPush(_ payload: PayloadValue) throws(WaypointError) {
        for provider in notificationProviders {
            if let marker = provider.internalMarker(in: payload) {
                throw WaypointError(
                    .notForRouting,
                    input: payload.description,
                    message: "The notification is \(provider.title)'s own push (\(marker)): not for routing."
                )
            }
        }
    }
}
