/// Where the app finds a click's claim URL on its first launch: the pasteboard on iOS
/// (``UIPasteboardClaimURLSource``), a paste the person made through `UIPasteControl`
/// (``PastedClaimURL``), or a test double.
///
/// ```swift
/// struct InstallReferrer: ClaimURLSource {   // a token URL the app got another way
///     let url: String?
///     func mayHoldClaimURL() async -> Bool { url != nil }
///     func claimText() async -> String? { url }
/// }
/// ```
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
    /// The text, or `nil` when the app has none.
    public let text: String?

    /// A source that holds `text`: `PastedClaimURL(nil)` holds nothing, so nothing is claimed.
    public init(_ text: String?) { self.text = text }

    /// Whether there is text at all.
    public func mayHoldClaimURL() async -> Bool { text != nil }
    /// The text as given.
    public func claimText() async -> String? { text }
}
