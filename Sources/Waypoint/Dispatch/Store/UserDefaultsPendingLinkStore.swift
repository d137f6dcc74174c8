import Foundation

/// Pending links in `UserDefaults`, under one key, as JSON.
///
/// ```swift
/// let store = UserDefaultsPendingLinkStore(defaults: .standard, key: "waypoint.pending")
/// ```
///
/// A record under the key that cannot be decoded (written by another build, or edited) is refused
/// and reported, and the others are restored; the data as it was is kept under `KEY.damaged`. Data
/// that is not a list of records at all is moved there whole and reported. Never a crash.
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

    /// The links under the key, oldest first; none when nothing is stored under it. Records that
    /// cannot be decoded are left out (``restore()`` reports them); data that is no list of records
    /// is moved to `KEY.damaged` and thrown as a ``WaypointError``.
    public func load() throws -> [PendingLink] { try read().links }

    /// The links under the key, and a sentence for each record that could not be decoded.
    public func restore() throws -> StoredPendingLinks {
        let (links, refused) = try read()
        return StoredPendingLinks(links: links, refused: refused)
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

    /// Decodes record by record, so one unreadable record does not take the others with it; the
    /// unreadable ones are set aside (with the data as it was) and the rest written back.
    private func read() throws -> (links: [PendingLink], refused: [String]) {
        guard let data = defaults.data(forKey: key) else { return ([], []) }
        guard let records = try? JSONSerialization.jsonObject(with: data) as? [Any] else {
            defaults.set(data, forKey: key + ".damaged")
            defaults.removeObject(forKey: key)
            throw WaypointError(
                .storeFailed,
                message: "The pending links under '\(key)' are damaged (not a list of records); they were set aside "
                    + "under '\(key).damaged'."
            )
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var links: [PendingLink] = []
        var refused: [String] = []
        for (index, record) in records.enumerated() {
            do {
                // Only an object is re-encoded: on Apple platforms any other value makes
                // `data(withJSONObject:)` raise an exception Swift cannot catch.
                guard record is [String: Any], JSONSerialization.isValidJSONObject(record) else {
                    throw WaypointError(.storeFailed, message: "not a record")
                }
                links.append(try decoder.decode(PendingLink.self, from: JSONSerialization.data(withJSONObject: record)))
            } catch {
                refused.append(
                    "The pending link \(index + 1) of \(records.count) under '\(key)' cannot be read (\(error)); it was "
                        + "set aside under '\(key).damaged'."
                )
            }
        }
        if !refused.isEmpty {
            defaults.set(data, forKey: key + ".damaged")
            try save(links)
        }
        return (links, refused)
    }
}
