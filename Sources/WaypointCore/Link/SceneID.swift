/// One of the app's scenes (windows), as the dispatcher knows it: an opaque identity the adapters
/// take from `UISceneSession.persistentIdentifier`, which the system keeps when it restores a
/// window after the process was killed, so the window gets its own pending link back.
///
/// ```swift
/// let scene = SceneID(session.persistentIdentifier)
/// await dispatcher.receive(intake.url(url), in: scene)   // `Waypoint`'s dispatcher: shown by that window's navigator
/// ```
public struct SceneID: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The identity as the adapters give it: `UISceneSession.persistentIdentifier`, or `"main"`.
    public let rawValue: String

    /// The scene with identity `rawValue`: `SceneID(session.persistentIdentifier)`.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.init(value) }

    /// The scene of an app that never names its scenes: what `LinkDispatcher.appDidBecomeReady()`,
    /// `LinkDispatcher.appDidBecomeActive()` and `LinkDispatcher.appDidEnterBackground()` act on.
    public static let main = SceneID("main")

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}
