/// Where the app finds a click's claim URL on its first launch: the pasteboard on iOS
/// (``UIPasteboardClaimURLSource``), a paste the person made through `UIPasteControl`
/// (``PastedClaimURL``), or a test double.
public protocol ClaimURLSource: Sendable {
    /// Whether the source may hold a claim URL, found without reading its contents: on iOS this
    /// shows no paste prompt, so an app with nothing of ours on the pasteboard never asks.
    func mayHoldClaimURL() async -> Bool
    /// The text it holds. Reading the pasteboard on iOS 16 and later asks the person first.
    func claimText() async -> String?
}

/// Text the app already has: what a `UIPasteControl` pasted, an Android install referrer's token
/// URL, or a test's fixed value.
///
/// ```swift
/// PastedClaimURL("https://links.example.com/c/AQE…")
/// ```
public struct PastedClaimURL: ClaimURLSource {
    public let text: String?

    public init(_ text: String?) { self.text = text }

    public func mayHoldClaimURL() async -> Bool { text != nil }
    public func claimText() async -> String? { text }
}
