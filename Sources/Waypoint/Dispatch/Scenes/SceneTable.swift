import Foundation

/// The dispatcher's picture of the app's windows: which are connected, ready and active, what
/// each shows, and its navigator. The one place that decides which window shows a link.
struct SceneTable<Destination: Hashable & Sendable>: Sendable {
    typealias Navigator = LinkDispatcher<Destination>.Navigator

    struct Scene: Sendable {
        var navigator: Navigator?
        var isReady = false
        var isActive = false
        /// Target content identifiers and route roles this scene shows.
        var shows: Set<String> = []
        /// When it last became active, in activations counted by the table: the latest is the
        /// foreground-active window.
        var activation = 0
    }

    private(set) var scenes: [SceneID: Scene] = [:]
    /// Shows links in every scene without a navigator of its own: what a one-window app sets.
    var defaultNavigator: Navigator?
    private var activations = 0

    /// Changes a scene, connecting it first if needed.
    mutating func update(_ id: SceneID, _ change: (inout Scene) -> Void) {
        var scene = scenes[id] ?? Scene()
        change(&scene)
        scenes[id] = scene
    }

    mutating func activate(_ id: SceneID) {
        activations += 1
        let activation = activations
        update(id) {
            $0.isActive = true
            $0.activation = activation
        }
    }

    mutating func disconnect(_ id: SceneID) { scenes[id] = nil }

    func isConnected(_ id: SceneID) -> Bool { scenes[id] != nil }

    func navigator(for id: SceneID) -> Navigator? {
        guard let scene = scenes[id] else { return nil }
        return scene.navigator ?? defaultNavigator
    }

    /// Whether a link may run in the scene now: connected, its root UI installed, in the
    /// foreground, and something shows what handlers return.
    func canRun(_ id: SceneID) -> Bool {
        guard let scene = scenes[id] else { return false }
        return scene.isReady && scene.isActive && (scene.navigator ?? defaultNavigator) != nil
    }

    /// The scene that shows a link now, or `nil` while it waits:
    /// 1. a link that arrived through a scene runs there, and waits while that scene cannot run;
    /// 2. else a connected scene that shows what the link wants (its target content identifier,
    ///    else its route's role), the most recently active first; it waits for that scene;
    /// 3. else the most recently active scene that can run.
    func scene(for pending: PendingLink, role: String?) -> SceneID? {
        if let own = pending.scene { return canRun(own) ? own : nil }
        if let wanted = pending.targetContentIdentifier ?? role,
            let showing = latest(among: scenes.filter { $0.value.shows.contains(wanted) })
        {
            return canRun(showing) ? showing : nil
        }
        return latest(among: scenes.filter { canRun($0.key) })
    }

    private func latest(among candidates: [SceneID: Scene]) -> SceneID? {
        // Ties (scenes never active) go to the larger identifier, so the choice never depends on
        // a dictionary's order.
        candidates.max { ($0.value.activation, $0.key.rawValue) < ($1.value.activation, $1.key.rawValue) }?.key
    }
}
