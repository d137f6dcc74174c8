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
                try source.write(toFile: output, atomically: true, encoding: .utf8)
            } catch {
                throw ValidationError("Cannot write '\(output)': \(error.localizedDescription)")
            }
        } else {
            print(source, terminator: "")
        }
    }
}
