import ArgumentParser
import Foundation
import Waypoint
import WaypointManifest

struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Find duplicate, ambiguous and shadowed routes, type conflicts, hidden quick actions, "
            + "mappings that lead nowhere, and universal links the association file would not open.",
        discussion: "Exit status: 0 without errors (warnings allowed), 1 with errors, 2 for a usage or manifest error."
    )

    @OptionGroup var options: ManifestOptions
    @OptionGroup var output: FormatOptions

    @Option(
        help:
            "A deployed apple-app-site-association (or - for standard input) to check against the routes, instead of the generated one.",
        completion: .file()
    )
    var aasa: String?

    func run() throws {
        let manifest = try options.load()
        var linter = ManifestLinter(manifest: manifest)
        if let aasa { linter.readAssociationFile(Data(try readInput(aasa).utf8)) }
        let findings = linter.lint()
        switch output.format {
        case .json:
            print(jsonLine(.array(findings.map { .object($0.json.mapValues(PayloadValue.string)) })))
        case .text:
            for finding in findings { print(finding) }
            let errors = findings.filter { $0.severity == .error }.count
            print("\(errors) error(s), \(findings.count - errors) warning(s) in \(manifest.routes.count) routes.")
        }
        if findings.contains(where: { $0.severity == .error }) { throw ExitCode(1) }
    }
}
