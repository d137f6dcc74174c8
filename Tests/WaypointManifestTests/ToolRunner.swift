import Foundation
import Testing

/// Runs the built `waypoint` binary the way a person or CI would.
struct ToolRunner {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The package root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let examples = root.appendingPathComponent("Examples/Manifests")

    static func manifest(_ name: String) -> String { examples.appendingPathComponent(name).path }

    /// The binary sits beside the test bundle in the build folder.
    static var binary: URL? {
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("waypoint"),
            Bundle.main.bundleURL.appendingPathComponent("waypoint"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "waypoint"
            ),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    static func run(_ arguments: [String], stdin: String? = nil) throws -> Output {
        let executable = try #require(binary, "the waypoint binary is built beside the tests")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = root
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self)
        )
    }

    static func snapshot(_ name: String) throws -> String {
        let url = root.appendingPathComponent("Tests/WaypointManifestTests/Snapshots/\(name)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// A manifest written to a temporary file, inside ``scratchFolder``.
    static func temporaryManifest(_ text: String) throws -> String {
        let url = scratchFolder.appendingPathComponent("waypoint-\(UUID().uuidString).yaml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// One folder for the files this test process writes, removed when the process exits, so runs do
    /// not pile manifests up in the temporary directory.
    static let scratchFolder: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("waypoint-tool-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: ToolRunner.scratchFolder) }
        return folder
    }()
}
