extension NotificationProvider {
    /// Customer.io: the link at `CIO.push.link`.
    public static let customerIO = NotificationProvider(
        name: "customerIO",
        title: "Customer.io",
        links: [Location(PayloadPath("CIO", "push", "link"))],
        reference:
            "github.com/customerio/customerio-ios Sources/MessagingPush/Type/PushNotification.swift (cioDeepLink); "
            + "docs.customer.io/integrations/sdk/ios/push/test-push"
    ) {
        sample(
            json: #"""
                {"aps":{"alert":{"title":"Title","body":"Body"},"mutable-content":1},"CIO-Delivery-ID":"d1",
                 "CIO-Delivery-Token":"token","CIO":{"push":{"link":"{link}","image":"https://example.com/image.png"}}}
                """#,
            link: $0
        )
    }
}
