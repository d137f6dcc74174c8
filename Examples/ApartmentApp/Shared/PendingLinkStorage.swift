#if canImport(Security)
import Foundation
import Security
import Waypoint

/// Where the example keeps links across process death: a sealed log in Application Support, its key
/// in the Keychain, so a file edited by hand (a link relabelled to pass a route's `sources`) is
/// refused and reported on restore rather than run.
enum PendingLinkStorage {
    /// The store: `Application Support/apartments-pending-links`, sealed with the Keychain's key.
    static func store() throws -> any PendingLinkStore {
        let folder = try FileManager.default.url(
            for: .applicationSupportDirectory,
            in: .userDomainMask,
            appropriateFor: nil,
            create: true
        )
        // Without the Keychain's key (a read it refuses before the first unlock), links stay in memory
        // for this launch rather than in a file that could not be checked.
        guard let key = try? key() else { return InMemoryPendingLinkStore() }
        return FilePendingLinkStore(url: folder.appendingPathComponent("apartments-pending-links"), key: key)
    }

    /// The key, made on first use and kept in the Keychain for this device only, readable after the
    /// first unlock (a link can be restored when the app launches in the background).
    static func key(service: String = "apartments.pendingLinks") throws -> PendingLinkKey {
        let lookup: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: "seal",
            kSecReturnData as String: true,
        ]
        var found: CFTypeRef?
        let status = SecItemCopyMatching(lookup as CFDictionary, &found)
        if status == errSecSuccess, let data = found as? Data {
            return try PendingLinkKey(bytes: Array(data))
        }
        // Only a key that is not there is made; any other answer (locked, denied) is no key.
        guard status == errSecItemNotFound else {
            throw WaypointError(
                .storeFailed,
                message: "The Keychain did not give the pending-link key (status \(status))."
            )
        }
        let key = PendingLinkKey.random()
        let item: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: "seal",
            kSecValueData as String: Data(key.bytesToStore),
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        let added = SecItemAdd(item as CFDictionary, nil)
        guard added == errSecSuccess else {
            throw WaypointError(
                .storeFailed,
                message: "The Keychain did not keep the pending-link key (status \(added))."
            )
        }
        return key
    }
}
#else
import Waypoint

/// Without a Keychain (the SDK stubs the adapters are checked against on Linux) links stay in memory.
enum PendingLinkStorage {
    static func store() throws -> any PendingLinkStore { InMemoryPendingLinkStore() }
}
#endif
