import ArgumentParser
import Foundation
import Waypoint
import WaypointManifest

struct AASACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aasa",
        abstract: "Generate or check apple-app-site-association files.",
        subcommands: [Generate.self, Check.self]
    )

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the apple-app-site-association for a domain (iOS 13+ components form).",
            discussion: "Serve it at https://DOMAIN/.well-known/apple-app-site-association as JSON, without redirects."
        )

        @OptionGroup var options: ManifestOptions

        @Option(help: "The domain the file is for (default: the manifest's first domain).")
        var domain: String?

        func run() throws {
            let manifest = try options.load()
            guard let domain = domain ?? manifest.domains.first else {
                throw ValidationError("The manifest lists no domains; add 'domains' or pass --domain.")
            }
            if let problem = DomainPattern.problem(domain) { throw ValidationError(problem) }
            // A file for a host the entitlement does not list is never fetched, and its links never open the app.
            let listed = manifest.domains.contains {
                $0.lowercased() == domain.lowercased() || DomainPattern($0).matches(domain)
            }
            guard listed else {
                throw ValidationError(
                    "'\(domain)' is not one of the manifest's domains (\(manifest.domains.joined(separator: ", "))): "
                        + "the app's associated-domains entitlement lists only those, so iOS never fetches its file."
                )
            }
            if domain.hasPrefix("*.") {
                printWarning(
                    "iOS fetches a file from each host: serve this one at https://SUBDOMAIN.\(domain.dropFirst(2))"
                        + "/.well-known/apple-app-site-association for every subdomain the app opens links on."
                )
            }
            do {
                let data = try AssociationFiles(manifest: manifest).appleAppSiteAssociation(for: domain)
                print(String(decoding: data, as: UTF8.self))
            } catch let error where error.code == .tooLarge {
                // Printed for a person to see what grew; iOS would not read it.
                print(String(decoding: error.file ?? Data(), as: UTF8.self))
                FileHandle.standardError.write(Data("error: \(error.message)\n".utf8))
                throw ExitCode(1)
            } catch {
                throw ValidationError(error.message)
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate an apple-app-site-association file and say which URLs open the app, as iOS decides.",
            discussion:
                "Prints the services the file declares, its errors and warnings with their JSON paths, and per URL "
                + "the verdict, the app, the component or path that decided and why. Exit status: 0 when the file has "
                + "no error (warnings allowed) and every URL opens the app, 1 otherwise, 2 for a usage error."
        )

        @Argument(help: "The apple-app-site-association file (or - for standard input).", completion: .file())
        var file: String

        @Option(name: .customLong("url"), help: "A URL to check; repeat for more.")
        var urls: [String] = []

        @OptionGroup var output: FormatOptions

        func run() throws {
            let text = try readInput(file)
            let (document, problems) = AASADocument.parse(Data(text.utf8))
            let checker = document.map(AASAChecker.init)
            let verdicts = checker.map { checker in urls.map(checker.check) } ?? []
            let errors = problems.filter { $0.severity == .error }.count
            let valid = document != nil && errors == 0
            let services = document?.services.map(\.rawValue) ?? []
            switch output.format {
            case .json:
                print(
                    jsonLine([
                        "valid": .bool(valid),
                        "bytes": .int(text.utf8.count),
                        "services": .array(services.map(PayloadValue.string)),
                        "problems": .array(problems.map(\.json)),
                        "urls": .array(verdicts.map(\.json)),
                    ])
                )
            case .text:
                let warnings = problems.count - errors
                let counts = [(errors, "error"), (warnings, "warning")].filter { $0.0 > 0 }
                    .map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }.joined(separator: ", ")
                print(
                    (valid ? "valid" : "invalid") + " (\(text.utf8.count) bytes"
                        + (counts.isEmpty ? "" : "; \(counts)") + ")"
                        + (services.isEmpty ? "" : "; services: " + services.joined(separator: ", "))
                )
                for problem in problems { print("  \(problem)") }
                for verdict in verdicts {
                    print(verdict.url)
                    print("  " + (verdict.opensApp ? "opens \(verdict.appID ?? "the app")" : "does not open the app"))
                    print("  why: \(verdict.reason)" + (verdict.location.map { " (\($0))" } ?? ""))
                }
            }
            if !valid || verdicts.contains(where: { !$0.opensApp }) { throw ExitCode(1) }
        }
    }
}

struct AssetLinksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assetlinks",
        abstract: "Generate Android's assetlinks.json.",
        subcommands: [Generate.self]
    )

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print assetlinks.json for the manifest's Android app."
        )

        @OptionGroup var options: ManifestOptions

        func run() throws {
            let data = try AssociationFiles(manifest: try options.load()).assetLinks()
            print(String(decoding: data, as: UTF8.self))
        }
    }
}
