// Each preset keeps only what the provider's own documentation or SDK source confirms; the
// reference beside it says where. Places a provider has that could not be confirmed are left
// out and named in the comment, so a team knows to add a rule of its own for them.
extension NotificationProvider {
    /// Braze: the tap's link at the top-level `ab_uri`; uninstall-tracking and test-trigger pushes
    /// are internal. (Where a button's own URI sits in the device payload is not documented.)
    public static let braze = NotificationProvider(
        name: "braze",
        title: "Braze",
        links: [Location(PayloadPath("ab_uri"))],
        internalMarkers: [
            InternalMarker(PayloadPath("appboy_uninstall_tracking"), .flag),
            InternalMarker(PayloadPath("ab_push_fetch_test_triggers_key"), .flag),
        ],
        reference:
            "braze.com/docs developer_guide/sdk_integration/reading_verbose_logs (ab_uri); "
            + "github.com/braze-inc/braze-swift-sdk Sources/BrazeKitCompat/AppboyKit/ABKPushUtils.m "
            + "(ABKUninstallTrackingPushPayloadKey, ABKFetchTestTriggerPushPayloadKey)"
    ) { link in
        ["aps": ["alert": ["title": "Title", "body": "Body"]], "ab": ["c": "campaign"], "ab_uri": .string(link)]
    }

    /// OneSignal: the launch URL at `custom.u` (`os_data.u` in the newer format); an in-app
    /// message preview is internal. OneSignal's iOS buttons carry no URL (web only).
    public static let oneSignal = NotificationProvider(
        name: "oneSignal",
        title: "OneSignal",
        links: [Location(PayloadPath("custom", "u")), Location(PayloadPath("os_data", "u"))],
        internalMarkers: [InternalMarker(PayloadPath("custom", "a", "os_in_app_message_preview_id"), .value)],
        reference:
            "github.com/OneSignal/OneSignal-iOS-SDK iOS_SDK/OneSignalSDK/OneSignalCore/Source/OSNotification.m "
            + "(custom.u, os_data.u), OneSignalCommonDefines.h (ONESIGNAL_IAM_PREVIEW); "
            + "documentation.onesignal.com/docs/action-buttons (button URLs: web only)"
    ) { link in
        [
            "aps": ["alert": ["title": "Title", "body": "Body"], "mutable-content": 1],
            "custom": ["i": "9f1c2d3e-0000-4000-8000-000000000001", "u": .string(link), "a": ["k": "v"]],
        ]
    }

    /// Airship: the payload is a map of actions; `^d` (`deep_link_action`) opens a deep link and
    /// `^u` (`open_external_url_action`) a URL. A button's actions are under
    /// `com.urbanairship.interactive_actions.<action>`; a remote-data refresh is internal.
    public static let airship = NotificationProvider(
        name: "airship",
        title: "Airship",
        links: Self.airshipActions,
        buttons: .keyed(PayloadPath("com.urbanairship.interactive_actions"), links: Self.airshipActions),
        internalMarkers: [InternalMarker(PayloadPath("com.urbanairship.remote-data.update"), .flag)],
        reference:
            "github.com/urbanairship/ios-library Airship/AirshipCore/Source (DeepLinkAction ^d, "
            + "OpenExternalURLAction ^u, interactive_actions in the app integration), "
            + "RemoteDataManager.swift (refreshRemoteDataPushPayloadKey)"
    ) { link in
        [
            "aps": ["alert": "Body", "category": "read_category"], "_": "send-id", "^d": .string(link),
            "com.urbanairship.interactive_actions": ["read": ["^d": .string(link)]],
        ]
    }

    private static let airshipActions = [
        Location(PayloadPath("^d")), Location(PayloadPath("deep_link_action")), Location(PayloadPath("^u")),
        Location(PayloadPath("open_external_url_action")),
    ]

    /// CleverTap: the deep link at `wzrk_dl`; test and preview pushes of in-app messages, the inbox
    /// and display units are internal. (The iOS SDK reads no button links.)
    public static let cleverTap = NotificationProvider(
        name: "cleverTap",
        title: "CleverTap",
        links: [Location(PayloadPath("wzrk_dl"))],
        internalMarkers: ["wzrk_inapp", "wzrk_inbox", "wzrk_adunit", "wzrk_inapp_s3_url", "wzrk_inapp_type"].map {
            InternalMarker(PayloadPath($0), .value)
        },
        reference:
            "github.com/CleverTap/clevertap-ios-sdk CleverTapSDK/CleverTap.m (urlForNotification: wzrk_dl; "
            + "_checkAndHandleTestPushPayload), CTConstants.h"
    ) { link in
        [
            "aps": ["alert": ["title": "Title", "body": "Body"]], "wzrk_id": "1700000000_20240101",
            "wzrk_pivot": "wzrk_default", "wzrk_dl": .string(link),
        ]
    }

    /// Iterable: `itbl.defaultAction.data` when its `type` is `openUrl`; a button's action is the
    /// entry of `itbl.actionButtons` whose `identifier` is the action's; a ghost push (in-app
    /// message sync) is internal.
    public static let iterable = NotificationProvider(
        name: "iterable",
        title: "Iterable",
        links: [
            Location(
                PayloadPath("itbl", "defaultAction", "data"),
                when: (PayloadPath("itbl", "defaultAction", "type"), "openUrl")
            )
        ],
        buttons: .listed(
            PayloadPath("itbl", "actionButtons"),
            identifier: PayloadPath("identifier"),
            link: Location(PayloadPath("action", "data"), when: (PayloadPath("action", "type"), "openUrl"))
        ),
        internalMarkers: [InternalMarker(PayloadPath("itbl", "isGhostPush"), .flag)],
        reference:
            "github.com/Iterable/swift-sdk swift-sdk/Internal/InternalIterableAppIntegration.swift "
            + "(defaultAction, findButtonActionConfig), IterableAction.actionTypeOpenUrl, "
            + "Internal/NotificationHelper.swift (isGhostPush)"
    ) { link in
        [
            "aps": ["alert": ["title": "Title", "body": "Body"], "mutable-content": 1],
            "itbl": [
                "campaignId": 123, "templateId": 456, "messageId": "m1", "isGhostPush": false,
                "defaultAction": ["type": "openUrl", "data": .string(link)],
                "actionButtons": [
                    [
                        "identifier": "read", "title": "Read", "buttonType": "default", "openApp": true,
                        "action": ["type": "openUrl", "data": .string(link)],
                    ]
                ],
            ],
        ]
    }

    /// Customer.io: the link at `CIO.push.link`.
    public static let customerIO = NotificationProvider(
        name: "customerIO",
        title: "Customer.io",
        links: [Location(PayloadPath("CIO", "push", "link"))],
        reference:
            "github.com/customerio/customerio-ios Sources/MessagingPush/Type/PushNotification.swift (cioDeepLink); "
            + "docs.customer.io/integrations/sdk/ios/push/test-push"
    ) { link in
        [
            "aps": ["alert": ["title": "Title", "body": "Body"], "mutable-content": 1],
            "CIO-Delivery-ID": "d1", "CIO-Delivery-Token": "token",
            "CIO": ["push": ["link": .string(link), "image": "https://example.com/image.png"]],
        ]
    }

    /// MoEngage: its silent pushes (`moengage.silentPush`, uninstall tracking) are internal. Where
    /// the iOS payload carries the tap's deep link is not documented (the SDK handles it itself):
    /// add a notification rule if the app reads it.
    public static let moEngage = NotificationProvider(
        name: "moEngage",
        title: "MoEngage",
        links: [],
        internalMarkers: [InternalMarker(PayloadPath("moengage", "silentPush"), .flag)],
        reference: "developers.moengage.com, iOS: Custom Notification Handling (moengage.silentPush)"
    ) { _ in ["aps": ["content-available": 1], "moengage": ["silentPush": 1]] }

    /// Batch: the deep link at `com.batch.l`.
    public static let batch = NotificationProvider(
        name: "batch",
        title: "Batch",
        links: [Location(PayloadPath("com.batch", "l"))],
        reference:
            "github.com/BatchLabs/Batch-iOS-SDK Sources/Supporting Files/Defined.h (kWebserviceKeyPushDeeplink), "
            + "BatchPush deeplinkFromUserInfo"
    ) { link in
        [
            "aps": ["alert": ["title": "Title", "body": "Body"]],
            "com.batch": ["i": "c1", "l": .string(link), "t": "t", "od": ["n": "x"]],
        ]
    }

    /// Firebase Cloud Messaging: no standard link key. An app sends its own keys, which arrive at
    /// the top level of the payload, where the app's ``LinkIntake/linkKeys`` read them; the SDK
    /// itself opens only `gcm.app_link`.
    public static let firebase = NotificationProvider(
        name: "firebase",
        title: "Firebase Cloud Messaging",
        links: [Location(PayloadPath("gcm.app_link"))],
        reference:
            "github.com/firebase/firebase-ios-sdk FirebaseMessaging/Sources/FIRMessagingConstants.m "
            + "(kFIRMessagingMessageLinkKey: gcm.app_link); firebase.google.com/docs/cloud-messaging "
            + "(ApnsFcmOptions carries only image and analytics_label)"
    ) { link in
        [
            "aps": ["alert": ["title": "Title", "body": "Body"], "mutable-content": 1],
            "gcm.message_id": "1234", "google.c.sender.id": "5678",
            "fcm_options": ["image": "https://example.com/image.png"], "gcm.app_link": .string(link),
        ]
    }

    /// Amazon Pinpoint: the deep link at `data.pinpoint.deeplink`.
    public static let pinpoint = NotificationProvider(
        name: "pinpoint",
        title: "Amazon Pinpoint",
        links: [Location(PayloadPath("data", "pinpoint", "deeplink"))],
        reference:
            "github.com/aws-amplify/aws-sdk-ios AWSPinpoint/AWSPinpointNotificationManager.m "
            + "(AWSCampaignDeepLinkKey); github.com/aws-amplify/amplify-swift PushNotificationUserInfo+Pinpoint.swift"
    ) { link in
        [
            "aps": ["alert": "Body"],
            "data": ["pinpoint": ["deeplink": .string(link), "campaign": ["campaign_id": "c1"]]],
        ]
    }

    /// Every preset. Its ``name`` is its Swift spelling (`.oneSignal` is `oneSignal`), the one
    /// spelling the manifest, the `waypoint` tool and the documentation use too.
    public static let presets: [NotificationProvider] = [
        .braze, .oneSignal, .airship, .cleverTap, .iterable, .customerIO, .moEngage, .batch, .firebase, .pinpoint,
    ]

    /// The preset named `name` (`braze`, `oneSignal`…), in any case.
    ///
    /// ```swift
    /// NotificationProvider.preset(named: "onesignal")?.name   // "oneSignal"
    /// ```
    public static func preset(named name: String) -> NotificationProvider? {
        let wanted = name.lowercased()
        return presets.first { $0.name.lowercased() == wanted }
    }
}
