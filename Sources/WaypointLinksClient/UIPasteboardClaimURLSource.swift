#if os(iOS) && !targetEnvironment(macCatalyst)
import UIKit

/// The general pasteboard as a ``ClaimURLSource``: looks for a web URL without reading it (no
/// prompt), and reads it only when one is there — which, on iOS 16 and later, shows the paste
/// prompt. An app that would rather never prompt shows a `UIPasteControl` when
/// ``mayHoldClaimURL()`` is true and claims what it pastes through ``PastedClaimURL``.
///
/// ```swift
/// ClaimingDeferredLinkProvider(service: service, source: UIPasteboardClaimURLSource())
/// ```
public struct UIPasteboardClaimURLSource: ClaimURLSource {
    /// The general pasteboard: `UIPasteboardClaimURLSource()`.
    public init() {}

    /// Whether the pasteboard holds a probable web URL, found without reading it: no paste prompt.
    @MainActor
    public func mayHoldClaimURL() async -> Bool {
        let pasteboard = UIPasteboard.general
        // Neither reads the contents, so neither notifies the person.
        guard pasteboard.hasStrings || pasteboard.hasURLs else { return false }
        let found = try? await pasteboard.detectedPatterns(for: [\.probableWebURL])
        return found?.contains(\.probableWebURL) ?? false
    }

    /// The pasteboard's text, or its URL when it holds no text; on iOS 16 and later this asks the person.
    @MainActor
    public func claimText() async -> String? {
        // The landing page copies text; a URL item is read only when there is no text, so the
        // usual case is one read and one prompt.
        let pasteboard = UIPasteboard.general
        return pasteboard.string ?? pasteboard.url?.absoluteString
    }
}
#endif
