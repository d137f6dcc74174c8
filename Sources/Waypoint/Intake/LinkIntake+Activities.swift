import Foundation

extension LinkIntake {
    /// A Handoff or Spotlight user activity.
    ///
    /// Browsing-web activities are universal links (their page on an associated domain) or web links.
    /// Other types go through ``activityRoutes``; a Spotlight item without a route is read as a link
    /// when its identifier is one.
    public func userActivity(_ activity: some UserActivityRepresentable) -> IntakeResult {
        result { () throws(WaypointError) in
            let type = activity.activityType
            if type == UserActivityType.browsingWeb {
                guard let url = activity.webpageURL else {
                    throw WaypointError(
                        .noLink,
                        input: type,
                        message: "A browsing-web activity arrived without a webpage URL."
                    )
                }
                var link = try parse(url.absoluteString, strict: true, source: .userActivity)
                link.source = systemDeliveredSource(of: link)
                return .link(link, identity: DeliveryIdentity.url(link))
            }
            let userInfo = try payload(activity.userInfo ?? [:])
            if let template = activityRoutes[type] {
                let text = try fill(template, from: userInfo, appendingExtras: false)
                let link = try parse(text, strict: true, source: .userActivity, payload: userInfo)
                return .link(link, identity: DeliveryIdentity.activity(type, link))
            }
            if type == UserActivityType.spotlightItem,
                let identifier = userInfo[UserActivityType.spotlightIdentifierKey]?.text
            {
                let link = try parse(identifier, strict: true, source: .userActivity, payload: userInfo)
                return .link(link, identity: DeliveryIdentity.activity(type, link))
            }
            throw WaypointError(
                .unmappedActivity,
                input: "\(type) \(userInfo)",
                message: "No route is mapped for the user activity type '\(type)'."
            )
        }
    }
}
