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
            alert: alert,
            provider: preset
        )
        print(jsonLine(payload, pretty: output.format == .text))
    }
}
