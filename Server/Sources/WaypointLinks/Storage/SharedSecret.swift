import Foundation
import NIOConcurrencyHelpers

/// The secret all instances on one database share (``LinkStore/sharedSecret``): 32 random bytes the
/// first instance proposes and every later one reads back, so tokens one instance signs verify on
/// every other without configuration.
final class SharedSecret: Sendable {
    /// Its row in `service_secrets`.
    static let name = "signing"

    private let bytes = NIOLockedValueBox<[UInt8]>([])

    /// What this instance proposes, in hexadecimal; kept only when no instance proposed before.
    static func proposal() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hexadecimal.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The stored value, once read; a value that is not 32 bytes of hexadecimal is a damaged database.
    func load(_ stored: String?) throws(StoreError) {
        guard let stored, let value = Hexadecimal.decode(stored), value.count == 32 else {
            throw StoreError(
                "The shared secret in service_secrets is missing or damaged; delete its row to make a new one."
            )
        }
        bytes.withLockedValue { $0 = value }
    }

    var value: [UInt8] { bytes.withLockedValue { $0 } }
}
