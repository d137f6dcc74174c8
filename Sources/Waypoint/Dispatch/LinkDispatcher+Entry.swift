import Foundation

extension LinkDispatcher {
    /// A received link with what the dispatcher needs to run and persist it.
    /// A reference, not a value: the state machine's queue moves entries about (a restore can queue thousands), and
    /// moving a reference costs a word where a link's value costs hundreds of bytes.
    final class Entry: Sendable {
        let pending: PendingLink
        let link: DeepLink
        /// What policy and routing made of the link, once, at receipt.
        let resolved: ResolvedLink<LinkRoute<Destination>>
        /// Clock time at receipt, for event durations.
        let receivedAt: TimeInterval

        /// The role of the route the link matched, for choosing its window when it has none. Kept,
        /// not computed: the queue asks it for every waiting link each time it places one.
        let role: String?

        /// What it waits for: its own scene, else the content it wants shown, else any window.
        /// Links waiting for the same thing supersede one another under ``DispatcherConfiguration/QueuePolicy/latestWins``.
        var waitsFor: String {
            if let scene = pending.scene { return "scene " + scene.rawValue }
            return (pending.targetContentIdentifier ?? role).map { "shows " + $0 } ?? "any scene"
        }

        init(
            pending: PendingLink,
            link: DeepLink,
            resolved: ResolvedLink<LinkRoute<Destination>>,
            receivedAt: TimeInterval
        ) {
            self.pending = pending
            self.link = link
            self.resolved = resolved
            self.receivedAt = receivedAt
            self.role = link.scene == nil ? resolved.resolution.match?.value.sceneRole : nil
        }

        /// The entry kept until `deadline`, the end of the barrier check it waits on.
        func waitingOnCheck(until deadline: Date) -> Entry {
            var pending = self.pending
            pending.checkDeadline = deadline
            return Entry(pending: pending, link: link, resolved: resolved, receivedAt: receivedAt)
        }

        /// The entry free of the scene it arrived through, which has gone: for `scene` (the window a
        /// new tap of it came through), or for any window.
        func released(to scene: SceneID? = nil) -> Entry {
            var pending = self.pending
            var link = self.link
            pending.scene = scene
            link.scene = scene
            return Entry(pending: pending, link: link, resolved: resolved.over(link), receivedAt: receivedAt)
        }
    }
}
