import ArgumentParser
import Foundation
import Waypoint
import WaypointManifest

struct PayloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "payload",
        abstract: "Print an APNs payload that opens a route, in the shape the manifest's notification mapping reads.",
        discussion:
            "Refuses payloads over 4096 bytes. `waypoint resolve --notification` of the output resolves to the same route."
    )

    @OptionGroup var options: ManifestOptions
    @OptionGroup var output: FormatOptions

    @Argument(help: "The route's name.")
    var route: String

    @Option(name: .customLong("param"), help: "A path parameter or query item, as name=value; repeat for more.")
    var parameters: [String] = []

    @Option(
        name: .customLong("wildcard"),
        help: "A value for the route's next '*', then the segments for '**', in order; repeat for more."
    )
    var wildcards: [String] = []

    @Option(help: "The alert's title.") var title: String?
    @Option(help: "The alert's body.") var body: String?
    @Option(help: "The notification category (aps.category).") var category: String?
    @Option(name: .customLong("thread-id"), help: "The thread identifier (aps.thread-id).") var threadID: String?
    @Option(
        name: .customLong("target-content-id"),
        help: "Which window shows the link when the app has several (aps.target-content-id)."
    )
    var targetContentID: String?
    @Option(help: "Build the payload in a push provider's shape (braze, oneSignal, airship, …).")
    var provider: String?

    func run() throws {
        var values: [String: String] = [:]
        for parameter in parameters {
            let parts = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw ValidationError("--param takes name=value, got '\(parameter)'.")
            }
            values[String(parts[0])] = String(parts[1])
        }
        let alert = PayloadGenerator.Alert(
            title: title,
            body: body,
            category: category,
            threadID: threadID,
            targetContentID: targetContentID
        )
        let manifest = try options.load()
        var preset: NotificationProvider?
        if let provider {
            preset = try NotificationProvider.preset(
                spelled: provider,
                among: manifest.notifications.ownProviders.map(\.provider)
            ).mapError { ValidationError($0.message) }.get()
        }
        let payload = try PayloadGenerator(manifest: manifest).payload(
            route: route,
            parameters: values,
            wildcards: wildcards,
            alert: alert,
            provider: preset
        )
        if let preset, !manifest.makeIntake().notificationProviders.contains(preset) {
            // The payload is the provider's shape, which the app reads only once the manifest lists it.
            printWarning(
                "The manifest's notifications.providers does not list \(preset.name), so the app does not read this "
                    + "payload: add it there (`waypoint resolve --provider \(preset.name)` reads it meanwhile)."
            )
        }
        if payload["aps.alert"] == nil {
            // Only a tap opens the route, and iOS shows a push with no alert to no one.
            printWarning(
                "The payload has no alert (--title or --body): iOS shows nothing to tap, so it opens no route."
            )
        }
        // The limit is on what is sent; people paste what is printed, so the spaced-out text must fit too.
        let pretty = jsonLine(payload, pretty: true)
        if output.format == .text && pretty.utf8.count <= PayloadGenerator.sizeLimit {
            print(pretty)
        } else {
            if output.format == .text {
                printWarning(
                    "Printed without spaces: spaced out, the payload is \(pretty.utf8.count) bytes, over APNs' "
                        + "\(PayloadGenerator.sizeLimit)."
                )
            }
            print(jsonLine(payload, pretty: false))
        }
    }
}
