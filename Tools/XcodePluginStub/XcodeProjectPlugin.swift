// A stand-in for Xcode's XcodeProjectPlugin module, which ships only inside Xcode: the few
// declarations WaypointGenerator's Xcode entry point uses, with the signatures public plugins that
// build in Xcode use them with (SwiftLint's, for one). `Scripts/check-xcode-plugin.sh` type-checks
// the plugin against it on Linux, so a slip in that entry point (never compiled by SwiftPM) shows
// in CI rather than in an app's Xcode build. It says nothing Xcode itself would not: where Xcode's
// module differs, Xcode's wins, and this file follows it.
import Foundation
import PackagePlugin

public protocol XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command]
}

public struct XcodePluginContext {
    public var pluginWorkDirectoryURL: URL { fatalError("a stub: never run") }
    public func tool(named name: String) throws -> PluginContext.Tool { fatalError("a stub: never run") }
}

public struct XcodeTarget {
    public var displayName: String { fatalError("a stub: never run") }
    public var inputFiles: FileList { fatalError("a stub: never run") }
}
