import ArgumentParser
import Foundation
import Waypoint
import WaypointManifest

struct ResolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Resolve URLs, text, notification payloads, quick actions, activities and web messages.",
        discussion:
            "Exit status: 0 when every input matched a route, 1 when any did not, 2 for a usage or manifest error."
    )

    @OptionGroup var options: ManifestOptions
    @OptionGroup var output: FormatOptions

    @Argument(help: "URLs or text (text from people is parsed leniently).")
    var inputs: [String] = []

    @Option(
        help: "A notification payload (JSON file, or - for standard input).",
        completion: .file(extensions: ["json"])
    )
    var notification: String?

    @Option(help: "The notification action identifier (default: the tap on the notification).")
    var action: String?

    @Option(
        name: .customLong("provider"),
        help:
            "A push provider whose payload shape to read, besides the manifest's (braze, oneSignal, airship, …); repeat for more."
    )
    var providers: [String] = []

    @Flag(
        name: .customLong("notification-settings"),
        help: "\"Open notification settings\", chosen in the system Settings app."
    )
    var notificationSettings = false

    @Option(help: "A quick action type.")
    var shortcut: String?

    @Option(name: .customLong("user-info"), help: "The quick action's or the activity's userInfo, as a JSON object.")
    var userInfo: String?

    @Option(help: "A user activity type (NSUserActivityTypeBrowsingWeb with --webpage for universal links).")
    var activity: String?

    @Option(help: "The user activity's webpage URL.")
    var webpage: String?

    @Option(name: .customLong("web-message"), help: "A web-view script message handler name.")
    var webMessage: String?

    @Option(help: "The web message's body, as JSON (a string or an object).")
    var body: String?

    @Option(help: "The origin of the web message's frame (default: https:// and the first domain).")
    var origin: String?

    func validate() throws {
        let nothingGiven =
            inputs.isEmpty && notification == nil && !notificationSettings && shortcut == nil && activity == nil
            && webMessage == nil
        if nothingGiven {
            throw ValidationError(
                "Give a URL or text, or one of --notification, --notification-settings, --shortcut, --activity, --web-message."
            )
        }
        if webMessage != nil && body == nil { throw ValidationError("--web-message needs --body.") }
        // These are what the page or the system would send, written as JSON on the command line: a
        // mistake here is the user's, not a payload to resolve.
        if let body, (try? PayloadValue(json: body)) == nil {
            throw ValidationError(
                "--body takes the message body as JSON: a string in quotes (--body '\"/products/5\"') or an object "
                    + "(--body '{\"url\": \"/products/5\"}'); '\(body)' is not JSON."
            )
        }
        if let userInfo {
            guard case .object? = try? PayloadValue(json: userInfo) else {
                throw ValidationError(
                    "--user-info takes the quick action's userInfo as a JSON object (--user-info '{\"id\": \"42\"}'); "
                        + "'\(userInfo)' is not one."
                )
            }
        }
        if let origin {
            guard let link = try? DeepLink(origin), link.isWeb, link.host != nil, link.routingPath == "/" else {
                throw ValidationError(
                    "--origin takes the origin of the frame that posts the message, such as https://example.com; "
                        + "'\(origin)' is not one."
                )
            }
        }
        if action != nil && notification == nil { throw ValidationError("--action goes with --notification.") }
    }

    func run() throws {
        let manifest = try options.load()
        let resolver = try manifest.makeResolver()
        var intake = manifest.makeIntake()
        for name in providers {
            let preset = try NotificationProvider.preset(
                spelled: name,
                among: manifest.notifications.ownProviders.map(\.provider)
            ).mapError { ValidationError($0.message) }.get()
            if !intake.notificationProviders.contains(preset) { intake.notificationProviders.append(preset) }
        }
        var reports: [ResolveReport] = []
        for input in inputs {
            var result = intake.url(input)
            if case .failure(let error) = result, error.code == .invalidLink, error.underlyingCode != .tooLong {
                // Not a strict URL: read it as text from people.
                if case .link = intake.text(input) { result = intake.text(input) }
            }
            reports.append(ResolveReport.make(input: input, intake: result, resolver: resolver))
        }
        if let notification {
            let text = try readInput(notification)
            let reading: NotificationReading
            do throws(WaypointError) {
                let payload = try PayloadValue(json: text)
                // APNs delivers an object; anything else would only read as a payload with no link.
                guard case .object = payload else {
                    throw WaypointError(
                        .unsupportedPayload,
                        input: text,
                        message:
                            "A notification payload is a JSON object ({\"aps\": …}); this is \(Self.kind(of: payload))."
                    )
                }
                reading = intake.readNotification(
                    NotificationResponseSnapshot(
                        actionIdentifier: action ?? NotificationActionIdentifier.default,
                        requestIdentifier: "cli",
                        userInfo: payload
                    )
                )
            } catch {
                reading = NotificationReading(result: .failure(error), reader: nil)
            }
            reports.append(
                ResolveReport.make(
                    input: text.trimmingCharacters(in: .whitespacesAndNewlines),
                    intake: reading.result,
                    readBy: reading.reader?.description,
                    resolver: resolver
                )
            )
        }
        if notificationSettings {
            reports.append(
                ResolveReport.make(input: "openSettingsFor", intake: intake.notificationSettings(), resolver: resolver)
            )
        }
        if let shortcut {
            let result: IntakeResult
            do throws(WaypointError) {
                var info: [String: PayloadValue] = [:]
                if let userInfo { info = try PayloadValue(json: userInfo).objectValue }
                result = intake.shortcut(ShortcutItemSnapshot(type: shortcut, userInfo: info))
            } catch {
                result = .failure(error)
            }
            reports.append(ResolveReport.make(input: shortcut, intake: result, resolver: resolver))
        }
        if let activity {
            let url = webpage.flatMap { URL(string: $0) }
            // validate() made sure --user-info is a JSON object.
            let info = userInfo.flatMap { try? PayloadValue(json: $0).objectValue } ?? [:]
            let result = intake.userActivity(
                UserActivitySnapshot(activityType: activity, webpageURL: url, userInfo: info)
            )
            reports.append(ResolveReport.make(input: webpage ?? activity, intake: result, resolver: resolver))
        }
        if let webMessage, let body {
            let result: IntakeResult
            do {
                let payload = try PayloadValue(json: body)
                let frameOrigin = origin ?? "https://" + (manifest.domains.first ?? "localhost")
                result = intake.webMessage(WebMessageSnapshot(name: webMessage, body: payload, origin: frameOrigin))
            } catch {
                result = .failure(error)
            }
            reports.append(ResolveReport.make(input: body, intake: result, resolver: resolver))
        }
        for report in reports {
            print(output.format == .json ? jsonLine(report.json) : report.text)
        }
        if reports.contains(where: { $0.status != .matched }) { throw ExitCode(1) }
    }

    /// What a JSON value is, for a message: "an array", "a string", "null".
    static func kind(of value: PayloadValue) -> String {
        switch value {
        case .string: "a string"
        case .int, .double: "a number"
        case .bool: "a boolean"
        case .array: "an array"
        case .object: "an object"
        case .null: "null"
        }
    }
}
