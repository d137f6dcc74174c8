import Waypoint

/// A push provider the manifest describes itself, for a sender with no preset: where its payload
/// holds the tap's link, its buttons' links and the markers of its own pushes, with payloads of
/// the sender's given beside it that `waypoint lint` checks those places against.
///
/// ```yaml
/// notifications:
///   providers:
///     - name: acmePush
///       links: [acme.url]
///       internal: [{flag: acme.silent}]
///       samples:
///         - payload: {aps: {alert: Hi}, acme: {url: "myapp://books/42"}}
///           opens: myapp://books/42
/// ```
public struct ManifestProvider: Sendable {
    /// The provider as the intake reads it, in the order the manifest lists it among the presets.
    public var provider: NotificationProvider
    /// The sender's payloads and what each must do.
    public var samples: [ProviderSample]
    /// Where the provider is written.
    public var location: SourceLocation
}

/// A payload of a provider's, with what it must do when the user taps it or one of its buttons.
///
/// ```swift
/// manifest.notifications.ownProviders[0].samples[0].outcome   // .opens("myapp://books/42")
/// ```
public struct ProviderSample: Sendable {
    /// What the push does.
    public enum Outcome: Sendable, Hashable {
        /// It opens this link.
        case opens(String)
        /// It is the provider's own push (a silent sync, a test send): not for routing.
        case ownPush
        /// It opens no link: nothing in it reads as one, or its button carries none.
        case opensNothing
    }

    /// The sender's payload.
    public var payload: PayloadValue
    /// The action the user chose: ``NotificationActionIdentifier/default`` for a tap on the
    /// notification, else a button's identifier.
    public var action: String
    /// What the payload must do.
    public var outcome: Outcome
    /// Where the sample is written.
    public var location: SourceLocation
}
