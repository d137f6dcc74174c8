import Foundation
import Testing
import Waypoint
import WaypointManifest

@Suite("One spelling of each push provider: Swift's, in the manifest, the tool and the README")
struct ProviderSpellingTests {
    @Test("A preset's name is its Swift spelling, and the manifest takes it in any case")
    func namesAreSwiftSpellings() throws {
        let spelled: [(String, NotificationProvider)] = [
            ("braze", .braze), ("oneSignal", .oneSignal), ("airship", .airship), ("cleverTap", .cleverTap),
            ("iterable", .iterable), ("customerIO", .customerIO), ("moEngage", .moEngage), ("batch", .batch),
            ("firebase", .firebase), ("pinpoint", .pinpoint),
        ]
        #expect(spelled.map(\.1.name) == spelled.map(\.0))
        #expect(NotificationProvider.presets.map(\.name) == spelled.map(\.0))
        for (name, preset) in spelled {
            let manifest = try ManifestLoader.parse("routes: []\nnotifications: {providers: [\(name.lowercased())]}\n")
            #expect(manifest.notifications.providers == [preset])
        }
    }

    @Test("A name a provider is known by, or a slip, is an error that says what to write")
    func nearMisses() {
        func message(_ name: String) -> String? {
            if case .failure(let error) = NotificationProvider.preset(spelled: name) { return error.message }
            return nil
        }
        #expect(message("fcm")?.hasPrefix("Unknown push provider 'fcm'. Did you mean 'firebase'?") == true)
        #expect(
            message("one-signal")?.hasPrefix("Unknown push provider 'one-signal'. Did you mean 'oneSignal'?") == true
        )
        #expect(message("Customer.io")?.contains("Did you mean 'customerIO'?") == true)
        #expect(message("urban_airship")?.contains("Did you mean 'airship'?") == true)
        #expect(
            message("pusher") == "Unknown push provider 'pusher'. The providers are: "
                + NotificationProvider.presets.map(\.name).joined(separator: ", ") + "."
        )
        #expect(message("ONESIGNAL") == nil)
    }

    @Test("The README's provider table names every preset, as Swift spells it")
    func readmeTable() throws {
        let readme = try String(contentsOf: ToolRunner.root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "### Push providers").dropFirst().first)
        let rows = section.components(separatedBy: "\n").prefix { !$0.hasPrefix("### ") }
        let names = rows.compactMap { row -> String? in
            guard row.hasPrefix("| `"), let end = row.dropFirst(3).firstIndex(of: "`") else { return nil }
            return String(row[row.index(row.startIndex, offsetBy: 3)..<end])
        }
        #expect(names == NotificationProvider.presets.map(\.name))
    }
}
