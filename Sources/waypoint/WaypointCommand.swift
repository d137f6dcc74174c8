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
        version: WaypointRelease.version,
        subcommands: [
            ResolveCommand.self, LintCommand.self, AASACommand.self, AssetLinksCommand.self, PlistCommand.self,
            PayloadCommand.self, CodegenCommand.self,
        ]
    )

    /// Exit status 0 for success, 1 for a negative answer (a link that did not match, a lint error),
    /// 2 for a usage or manifest error. A mistake in the command line prints its usage; a failure
    /// while the command runs (a missing file, a bad value) prints one line, `error: …`.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let unknown = CommandSuggestion.unknownCommand(in: arguments, under: Self.self) {
            fail(unknown)
        }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            if exitCode(for: error) == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            FileHandle.standardError.write(Data("\(fullMessage(for: error))\n".utf8))
            Foundation.exit(2)
        }
        do {
            try command.run()
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch let error as ValidationError {
            fail(error.message)
        } catch {
            // `waypoint help` runs ArgumentParser's own help command, which ends with a help request.
            if exitCode(for: error) == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            fail(String(describing: error))
        }
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        Foundation.exit(2)
    }
}

/// `--format text|json`, on the commands whose output has both forms.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// The manifest to read: `--manifest FILE`, by default `waypoint.yaml` in the current directory.
struct ManifestOptions: ParsableArguments {
    @Option(
        name: .long,
        help: "The route manifest (YAML or JSON).",
        completion: .file(extensions: ["yaml", "yml", "json"])
    )
    var manifest = "waypoint.yaml"

    func load() throws -> Manifest { try ManifestLoader.load(file: manifest) }
}

/// `--format`, for commands that print either a report for people or JSON for tools.
struct FormatOptions: ParsableArguments {
    @Option(name: .long, help: "Output format: text or json.")
    var format: OutputFormat = .text
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

/// A warning for people, on standard error, so the output stays what tools read.
func printWarning(_ message: String) {
    FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
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
