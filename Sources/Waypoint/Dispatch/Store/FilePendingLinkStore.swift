import Foundation

/// Pending links in a JSON file, written atomically. On Apple platforms the file is written with
/// data protection (`completeFileProtectionUntilFirstUserAuthentication`): encrypted until the
/// device is first unlocked after a restart, readable after, so a link can still be restored when
/// the app launches in the background.
///
/// ```swift
/// let store = FilePendingLinkStore(url: applicationSupport.appendingPathComponent("waypoint-pending.json"))
/// ```
///
/// A file that cannot be decoded is moved aside to `NAME.damaged` and reported, never a crash.
public struct FilePendingLinkStore: PendingLinkStore {
    public let url: URL

    public init(url: URL) { self.url = url }

    public func load() throws -> [PendingLink] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw PendingLinkStoreError(
                message: "The pending-link store \(url.path) cannot be read: \(error.localizedDescription)"
            )
        }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode([PendingLink].self, from: data)
        } catch {
            let aside = url.appendingPathExtension("damaged")
            try? FileManager.default.removeItem(at: aside)
            try? FileManager.default.moveItem(at: url, to: aside)
            throw PendingLinkStoreError(
                message: "The pending-link store \(url.path) is damaged (\(error)); it was set aside at \(aside.path)."
            )
        }
    }

    #if canImport(Darwin)
    static let writingOptions: Data.WritingOptions = [.atomic, .completeFileProtectionUntilFirstUserAuthentication]
    #else
    static let writingOptions: Data.WritingOptions = [.atomic]
    #endif

    public func save(_ links: [PendingLink]) throws {
        if links.isEmpty {
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            return
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(links).write(to: url, options: Self.writingOptions)
    }
}
