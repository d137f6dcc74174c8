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
            ("firebase", .firebase), ("pinpoint", .pinpoint), ("klaviyo", .klaviyo), ("leanplum", .leanplum),
            ("intercom", .intercom), ("adobeJourneyOptimizer", .adobeJourneyOptimizer),
            ("adobeCampaign", .adobeCampaign), ("adobeMobileServices", .adobeMobileServices), ("expo", .expo),
            ("pushwoosh", .pushwoosh), ("netcore", .netcore), ("kumulos", .kumulos),
            ("salesforceMarketingCloud", .salesforceMarketingCloud), ("insider", .insider), ("mixpanel", .mixpanel),
            ("countly", .countly), ("sendbird", .sendbird),
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

    /// The rows of the table that follows `heading` in the Push providers article: its cells.
    static func table(after heading: String) throws -> [[String]] {
        let url = ToolRunner.root.appendingPathComponent("Sources/Waypoint/Documentation.docc/PushProviders.md")
        let article = try String(contentsOf: url, encoding: .utf8)
        let section = try #require(article.components(separatedBy: heading).dropFirst().first)
        let rows = section.components(separatedBy: "\n").drop { !$0.hasPrefix("| ") }.prefix { $0.hasPrefix("| ") }
        return rows.dropFirst(2).map { row in
            row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    @Test("The Push providers article lists every preset, as Swift spells it, with what it reads")
    func articleTables() throws {
        let presets = NotificationProvider.presets
        let rows = try Self.table(after: "## Presets")
        #expect(rows.map { $0.first ?? "" } == presets.map { "`\($0.name)`" })
        for (row, preset) in zip(rows, presets) {
            // Each place the preset reads the tap's link from is named in its row (keys joined by dots,
            // as people read them).
            for place in preset.links {
                let path = place.path.keys.joined(separator: ".")
                #expect(row[1].contains("`\(path)"), "\(preset.name): \(path) in \(row[1])")
            }
            for marker in preset.internalMarkers {
                let path = marker.path.keys.joined(separator: ".")
                #expect(row[3].contains("`\(path)`"), "\(preset.name): \(path) in \(row[3])")
            }
            #expect(row[2].isEmpty == false || preset.buttons == nil, "\(preset.name): its buttons")
        }
        // The names table: manifest, Swift, the provider's name, and every other name taken for it.
        let names = try Self.table(after: "## Names")
        #expect(names.map { $0[0] } == presets.map { "`\($0.name)`" })
        for (row, preset) in zip(names, presets) {
            #expect(row[1] == "`.\(preset.name)`")
            #expect(row[2] == preset.title)
            let others = Set(NotificationProvider.otherNames.filter { $0.value == preset.name }.keys.map { "`\($0)`" })
            let listed = Set(row[3].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(listed == others, "\(preset.name)")
        }
        // The README names them all too.
        let readme = try String(contentsOf: ToolRunner.root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "### Push providers").dropFirst().first)
        for preset in presets { #expect(section.contains("`\(preset.name)`"), "README: \(preset.name)") }
    }

    @Test("A sender with no preset is told why and what to do instead")
    func withoutPreset() throws {
        guard case .failure(let error) = NotificationProvider.preset(spelled: "webengage") else {
            Issue.record("WebEngage has no preset")
            return
        }
        #expect(error.message.hasPrefix("WebEngage has no preset: its SDK reads the tapped link itself"))
        // A manifest's own provider is found by name too, before the presets.
        let own = NotificationProvider(name: "acme", title: "Acme", links: [], reference: "x") { _ in [:] }
        #expect((try? NotificationProvider.preset(spelled: "ACME", among: [own]).get())?.title == "Acme")
        func message(_ name: String, among: [NotificationProvider] = []) -> String? {
            if case .failure(let error) = NotificationProvider.preset(spelled: name, among: among) {
                return error.message
            }
            return nil
        }
        let slip = try #require(message("acmee", among: [own]))
        #expect(slip.hasPrefix("Unknown push provider 'acmee'. Did you mean 'acme'?"))
        #expect(try #require(message("optimov")).contains("Did you mean 'kumulos'?"))
        #expect(try #require(message("SFMC")).contains("Did you mean 'salesforceMarketingCloud'?"))
    }
}
