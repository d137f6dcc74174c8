import Foundation
import PackagePlugin

/// `swift package waypoint lint` and `swift package waypoint aasa generate`: the `waypoint` tool on
/// the package's manifest, found without naming it (the `waypoint.yaml` of the package's targets,
/// else at the package root), or on the one `--manifest` names.
///
/// ```
/// $ swift package waypoint lint
/// $ swift package waypoint aasa generate --domain example.com
/// ```
@main
struct WaypointCommand: CommandPlugin {
    /// The tool's commands this plugin runs: the ones that read the manifest and write nothing.
    static let commands: [[String]] = [["lint"], ["aasa", "generate"]]

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        guard let command = Self.commands.first(where: { arguments.starts(with: $0) }) else {
            let known = Self.commands.map { $0.joined(separator: " ") }.joined(separator: "', '")
            Diagnostics.error("Run 'swift package waypoint' with one of: '\(known)'.")
            return
        }
        var rest = Array(arguments.dropFirst(command.count))
        if !rest.contains("--manifest") {
            guard let manifest = Self.manifest(in: context.package) else {
                Diagnostics.error(
                    "No waypoint.yaml in the package's targets or at its root; pass --manifest FILE."
                )
                return
            }
            rest += ["--manifest", manifest.path()]
        }
        let process = Process()
        process.executableURL = try context.tool(named: "waypoint").url
        process.arguments = command + rest
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error(
                "waypoint \(command.joined(separator: " ")) exited with status \(process.terminationStatus)."
            )
        }
    }

    static func manifest(in package: Package) -> URL? {
        for target in package.targets {
            guard let module = target as? SourceModuleTarget else { continue }
            if let file = module.sourceFiles.first(where: { $0.url.lastPathComponent == "waypoint.yaml" }) {
                return file.url
            }
        }
        let root = package.directoryURL.appending(path: "waypoint.yaml")
        return FileManager.default.fileExists(atPath: root.path()) ? root : nil
    }
}
