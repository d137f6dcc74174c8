import ArgumentParser
import Foundation
import WaypointManifest

struct CodegenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codegen",
        abstract: "Generate Swift: an enum of the routes with typed associated values and link builders.",
        discussion:
            "The manifest is linted first: its warnings are printed, and an error generates nothing (exit status 1)."
    )

    @OptionGroup var options: ManifestOptions

    @Option(help: "Write to this file instead of standard output.", completion: .file(extensions: ["swift"]))
    var output: String?

    @Option(name: .customLong("type-name"), help: "The enum's name.")
    var typeName = "AppRoute"

    func run() throws {
        let manifest = try options.load()
        // The build is where a mistake in the manifest should stop the app, not a push at run time: a
        // lint error (a notification rule or quick action that leads to no route) fails codegen, so
        // the build plugin fails at the manifest's line, and warnings show in the build's log.
        let findings = ManifestLinter(manifest: manifest).lint()
        for finding in findings {
            let placed = finding.location == nil ? "\(options.manifest): \(finding)" : "\(finding)"
            FileHandle.standardError.write(Data("\(placed)\n".utf8))
        }
        if findings.contains(where: { $0.severity == .error }) {
            FileHandle.standardError.write(
                Data("error: \(options.manifest): nothing generated; `waypoint lint` lists the same findings.\n".utf8)
            )
            throw ExitCode(1)
        }
        let source = try RouteCodeGenerator(manifest: manifest, typeName: typeName).source()
        if let output {
            do {
                try source.write(toFile: output, atomically: Self.mayReplace(output), encoding: .utf8)
            } catch {
                throw ValidationError("Cannot write '\(output)': \(error.localizedDescription)")
            }
        } else {
            print(source, terminator: "")
        }
    }

    /// Whether `path` may be written by replacing it (a new file renamed over it, so no reader sees
    /// half a file): only when it is a regular file or nothing yet. A rename over a symbolic link
    /// would replace the link, and over `/dev/null` (as root) the device itself.
    static func mayReplace(_ path: String) -> Bool {
        guard let type = try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType else {
            return true
        }
        return type == .typeRegular
    }
}
