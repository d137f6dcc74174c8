extension LinkIntake {
    /// A home-screen quick action: its type picks the template, its `userInfo` fills it, and the
    /// `userInfo` values the template does not use become query items.
    ///
    /// ```swift
    /// intake.shortcutRoutes = ["com.example.chat": "/messages/{id}"]
    /// intake.shortcut(ShortcutItemSnapshot(type: "com.example.chat", userInfo: ["id": "1", "ref": "home"]))
    /// // .link("/messages/1?ref=home", source .shortcut)
    /// ```
    public func shortcut(_ item: some ShortcutItemRepresentable) -> IntakeResult {
        result { () throws(WaypointError) in
            guard let template = shortcutRoutes[item.type] else {
                throw WaypointError(
                    .unmappedShortcut,
                    input: item.type,
                    message: "No route is mapped for the quick action type '\(item.type)'."
                )
            }
            let userInfo = try payload(item.shortcutUserInfo ?? [:])
            let text = try fill(template, from: userInfo, appendingExtras: true)
            let link = try parse(text, strict: true, source: .shortcut, payload: userInfo)
            return .link(link, identity: DeliveryIdentity.shortcut(item.type, link))
        }
    }
}
