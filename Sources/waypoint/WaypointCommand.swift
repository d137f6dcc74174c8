import ArgumentParser
import Foundation
import Waypoint
import WaypointManifest

/// `waypoint`: resolve and lint links against a route manifest, and generate what the platform needs.
@main
struct WaypointCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "waypoint",
        abstract: "Resolve and lint app links against a route manifest; generate and check platform files.",
        subcommands: [
            ResolveCommand.self, LintCommand.self, AASACommand.self, AssetLinksCommand.self, PlistCommand.self,
            PayloadCommand.self, CodegenCommand.self,
        ]
    )

    /// Exit status 0 for success, 1 for a negative answer (a link that did not match, a lint error),
    /// 2 for a usage or manifest error.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch let error as ManifestError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            Foundation.exit(2)
        } catch {
            if exitCode(for: error) == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            FileHandle.standardError.write(Data("\(fullMessage(for: error))\n".utf8))
            Foundation.exit(2)
        }
    }
}

/// `--format text|json`, on every command.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// The manifest to read: `--manifest FILE`, by default `waypoint.yaml` in the current directory.
struct ManifestOptions: ParsableArguments {
    @Option(name: .long, help: "The route manifest (YAML or JSON).")
    var manifest = "waypoint.yaml"

    @Option(name: .long, help: "Output format: text or json.")
    var format: OutputFormat = .text

    func load() throws -> Manifest { try ManifestLoader.load(file: manifest) }
}

/// Prints a JSON value on one line, keys sorted, so output is stable for tools and snapshots.
func jsonLine(_ value: PayloadValue, pretty: Bool = false) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
        pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
    // Encoding a PayloadValue cannot fail: it holds only JSON-representable values (non-finite
    // doubles never come from link parameters).
    let data = (try? encoder.encode(value)) ?? Data("null".utf8)
    return String(decoding: data, as: UTF8.self)
}

/// Reads a file, or standard input for `-`.
func readInput(_ path: String) throws -> String {
    if path == "-" {
        return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    }
    guard let data = FileManager.default.contents(atPath: path) else {
        throw ValidationError("Cannot read '\(path)'.")
    }
    return String(decoding: data, as: UTF8.self)
}
