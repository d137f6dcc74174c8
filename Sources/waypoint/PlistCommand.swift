import ArgumentParser
import Foundation
import Waypoint
import WaypointManifest

struct PlistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plist",
        abstract:
            "Print the Info.plist entries (URL types, static quick actions, activity types) or, with --entitlements, the associated-domains entitlement."
    )

    @OptionGroup var options: ManifestOptions
    @OptionGroup var output: FormatOptions

    @Flag(help: "Print the associated-domains entitlement instead of the Info.plist entries.")
    var entitlements = false

    func run() throws {
        let generator = PlistGenerator(manifest: try options.load())
        let plist = entitlements ? generator.entitlements : generator.infoPlist
        switch output.format {
        case .text: print(try PlistGenerator.xml(plist), terminator: "")
        case .json:
            let data = try JSONSerialization.data(
                withJSONObject: plist,
                options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            )
            print(String(decoding: data, as: UTF8.self))
        }
    }
}
