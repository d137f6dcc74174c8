import Foundation
import PackagePlugin

/// Generates a target's typed routes from the `waypoint.yaml` among its sources, at every build:
/// `waypoint codegen` writes `WaypointRoutes.swift` (an enum `AppRoute` and the manifest's link
/// setup, `AppRoute.makeDispatcher` among it) into the plugin's work
/// folder, which SwiftPM compiles with the target. Nothing generated is checked in, and a change
/// to the manifest rebuilds it. The same for an app target of an Xcode project, whose files
/// include the manifest (below).
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
        return try Self.commands(
            target: target.name,
            files: module.sourceFiles.map(\.url),
            workDirectory: context.pluginWorkDirectoryURL,
            tool: context.tool(named: "waypoint").url
        )
    }

    /// The one build command, whichever build asks: the manifest among `files`, generated into
    /// `workDirectory`. A target without one, or with two, is told so and builds nothing from it.
    static func commands(target: String, files: [URL], workDirectory: URL, tool: URL) -> [Command] {
        let manifests = files.filter { ["waypoint.yaml", "waypoint.yml"].contains($0.lastPathComponent) }
        guard let manifest = manifests.first else {
            Diagnostics.error(
                "The target '\(target)' uses WaypointGenerator but has no waypoint.yaml among its files; "
                    + "add one beside its Swift files (in an Xcode project, add it to the target)."
            )
            return []
        }
        if manifests.count > 1 {
            Diagnostics.error("The target '\(target)' has more than one waypoint manifest; keep one.")
            return []
        }
        let output = workDirectory.appending(path: "WaypointRoutes.swift")
        return [
            .buildCommand(
                displayName: "Generating typed routes from \(manifest.lastPathComponent)",
                executable: tool,
                arguments: ["codegen", "--manifest", manifest.path(), "--output", output.path()],
                inputFiles: [manifest],
                outputFiles: [output]
            )
        ]
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

// An app target of an Xcode project: Xcode hands the target's files (its sources and resources),
// and the manifest is one of them once it is added to the target.
extension WaypointGenerator: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        try Self.commands(
            target: target.displayName,
            files: target.inputFiles.map(\.url),
            workDirectory: context.pluginWorkDirectoryURL,
            tool: context.tool(named: "waypoint").url
        )
    }
}
#endif
