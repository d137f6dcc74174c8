import ArgumentParser
import Foundation
import WaypointManifest

struct CodegenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codegen",
        abstract: "Generate Swift: an enum of the routes with typed associated values and link builders."
    )

    @OptionGroup var options: ManifestOptions

    @Option(help: "Write to this file instead of standard output.", completion: .file(extensions: ["swift"]))
    var output: String?

    @Option(name: .customLong("type-name"), help: "The enum's name.")
    var typeName = "AppRoute"

    func run() throws {
        let source = try RouteCodeGenerator(manifest: try options.load(), typeName: typeName).source()
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
