import ArgumentParser
import Foundation
import WaypointLinks
import WaypointManifest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LinkImport.Format: ExpressibleByArgument {}
extension LinkExport.Format: ExpressibleByArgument {}

/// The options import and export share: the manifest, whose routes and domains the links follow,
/// and the database.
struct LinkServiceOptions: ParsableArguments {
    @Option(help: "The app's manifest (routes, domains, shortLinks).")
    var manifest = Self.defaultManifest

    static let defaultManifest = "waypoint.yaml"

    @OptionGroup var database: DatabaseOptions

    /// Opens the database and the service's rules over it, runs `body`, and closes the database.
    func withService<Value>(_ body: (LinkService) async throws -> Value) async throws -> Value {
        let loaded: Manifest
        do {
            loaded = try ManifestLoader.load(file: manifest)
        } catch {
            // Run from another folder, the default names no file: say what the manifest is for.
            let hint =
                manifest == Self.defaultManifest && !FileManager.default.fileExists(atPath: manifest)
                ? " The links' routes and domains come from the app's manifest: pass --manifest FILE." : ""
            throw CommandFailure(error.description + hint)
        }
        return try await database.withStore { store in
            let service: LinkService
            do {
                service = try LinkService(manifest: loaded, store: store)
            } catch let error as LinkServiceStartError {
                throw CommandFailure(error.message)
            }
            return try await body(service)
        }
    }
}

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create the links of a file: long Firebase Dynamic Links, CSV or JSON lines.",
        discussion: """
            fdl: a line a link, CODE,LONG_LINK or LONG_LINK (https://x.page.link/?link=…&isi=…&apn=…).
            csv and jsonl: as 'waypoint-links export' writes them. Each link is checked as the API checks it;
            a line that cannot be imported is printed with its number and why, and the others are imported.
            A file can be run again whole: a line whose link is stored already is counted as already
            imported, not made twice (a line without a code gets one made from its link).
            Exits 1 when any line was refused.
            """
    )

    @Argument(help: "The file; - for standard input.")
    var file: String

    @Option(help: "What the file holds: fdl, csv or jsonl.")
    var format: LinkImport.Format

    @Option(help: "The short-link domain for links that name none (the manifest's first by default).")
    var domain: String?

    @OptionGroup var service: LinkServiceOptions

    func run() async throws {
        let data: Data
        do {
            data =
                file == "-"
                ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw CommandFailure("Could not read '\(file)': \(error.localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CommandFailure("'\(file)' is not UTF-8 text.")
        }
        let report = try await service.withService { service in
            do {
                return try await service.importLinks(text, as: LinkImport(format: format, domain: domain))
            } catch let error as LinkServiceError {
                throw CommandFailure(error.message)
            }
        }
        print(report.summary)
        if report.refused > 0 { throw ExitCode(1) }
    }
}

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write every link, as JSON lines or CSV, a page at a time.",
        discussion: "'waypoint-links import --format jsonl' (or csv) reads the output back."
    )

    @Option(help: "jsonl or csv.")
    var format: LinkExport.Format = .jsonl

    @Option(help: "The file to write; standard output when absent.")
    var output: String?

    @OptionGroup var service: LinkServiceOptions

    func run() async throws {
        let handle: FileHandle
        if let output {
            // Opened in place, created or emptied: FileManager.createFile writes a new file and
            // renames it over the path, which replaces a symbolic link, and /dev/null itself as root.
            let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else {
                throw CommandFailure("Could not open '\(output)' for writing: \(String(cString: strerror(errno))).")
            }
            handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        } else {
            handle = FileHandle.standardOutput
        }
        defer { if output != nil { try? handle.close() } }
        try await service.withService { service in
            try await service.exportLinks(as: format) { chunk in try handle.write(contentsOf: Data(chunk.utf8)) }
        }
    }
}
