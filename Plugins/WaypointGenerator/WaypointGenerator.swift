import Foundation
import PackagePlugin

/// Generates a target's typed routes from the `waypoint.yaml` among its sources, at every build:
/// `waypoint codegen` writes `WaypointRoutes.swift` (an enum `AppRoute` and the manifest's link
/// setup, `AppRoute.makeDispatcher` among it) into the plugin's work
/// folder, which SwiftPM compiles with the target. Nothing generated is checked in, and a change
/// to the manifest rebuilds it.
///
/// ```swift
/// .target(
///     name: "MyApp",
///     dependencies: [.product(name: "Waypoint", package: "waypoint")],
///     plugins: [.plugin(name: "WaypointGenerator", package: "waypoint")]
/// )
/// ```
@main
struct WaypointGenerator: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let manifests = module.sourceFiles.filter {
            ["waypoint.yaml", "waypoint.yml"].contains($0.url.lastPathComponent)
        }
        guard let manifest = manifests.first else {
            Diagnostics.error(
                "The target '\(target.name)' uses WaypointGenerator but has no waypoint.yaml among its sources; "
                    + "add one beside its Swift files."
            )
            return []
        }
        if manifests.count > 1 {
            Diagnostics.error("The target '\(target.name)' has more than one waypoint manifest; keep one.")
            return []
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "WaypointRoutes.swift")
        return [
            .buildCommand(
                displayName: "Generating typed routes from \(manifest.url.lastPathComponent)",
                executable: try context.tool(named: "waypoint").url,
                arguments: ["codegen", "--manifest", manifest.url.path(), "--output", output.path()],
                inputFiles: [manifest.url],
                outputFiles: [output]
            )
        ]
    }
}
