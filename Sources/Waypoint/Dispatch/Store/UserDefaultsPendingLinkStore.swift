import Foundation

/// Pending links in `UserDefaults`, under one key, as JSON.
///
/// ```swift
/// let store = UserDefaultsPendingLinkStore(defaults: .standard, key: "waypoint.pending")
/// ```
///
/// Data under the key that cannot be decoded is moved to `KEY.damaged` and reported, never a crash.
public struct UserDefaultsPendingLinkStore: PendingLinkStore, @unchecked Sendable {
    // UserDefaults is thread-safe, but not marked Sendable on every platform.
    /// The defaults the links are kept in.
    public let defaults: UserDefaults
    /// The key the links are kept under, as JSON data.
    public let key: String

    /// A store under `key` in `defaults`; by default `waypoint.pendingLinks` in `.standard`:
    /// `UserDefaultsPendingLinkStore(key: "myapp.pendingLinks")`.
    public init(defaults: UserDefaults = .standard, key: String = "waypoint.pendingLinks") {
        self.defaults = defaults
        self.key = key
    }

    /// The links under the key, oldest first; none when nothing is stored under it. Data that cannot
    /// be decoded is moved to `KEY.damaged` and thrown as a ``WaypointError``.
    public func load() throws -> [PendingLink] {
        guard let data = defaults.data(forKey: key) else { return [] }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode([PendingLink].self, from: data)
        } catch {
            defaults.set(data, forKey: key + ".damaged")
            defaults.removeObject(forKey: key)
            throw WaypointError(
                .storeFailed,
                message:
                    "The pending links under '\(key)' are damaged (\(error)); they were set aside under '\(key).damaged'."
            )
        }
    }

    /// Writes `links` under the key as JSON, or removes the key when there are none.
    public func save(_ links: [PendingLink]) throws {
        guard !links.isEmpty else {
            defaults.removeObject(forKey: key)
            return
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        defaults.set(try encoder.encode(links), forKey: key)
    }
}
