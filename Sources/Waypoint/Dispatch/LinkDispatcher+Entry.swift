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

        /// Whether this process set the link's kept check end (``PendingLink/checkDeadline``): a
        /// later check of the link may then move it on; one restored from an earlier process may not.
        let keptEndHere: Bool

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
            receivedAt: TimeInterval,
            keptEndHere: Bool = false
        ) {
            self.pending = pending
            self.link = link
            self.resolved = resolved
            self.receivedAt = receivedAt
            self.keptEndHere = keptEndHere
            self.role = link.scene == nil ? resolved.resolution.match?.value.sceneRole : nil
        }

        /// The entry kept until `deadline`, the end of the barrier check it waits on.
        func waitingOnCheck(until deadline: Date) -> Entry {
            var pending = self.pending
            pending.checkDeadline = deadline
            return Entry(pending: pending, link: link, resolved: resolved, receivedAt: receivedAt, keptEndHere: true)
        }

        /// The entry free of the scene it arrived through, which has gone: for any window.
        func released() -> Entry {
            moved(to: nil, receivedAt: receivedAt, on: pending.receivedAt, checkDeadline: pending.checkDeadline)
        }

        /// The entry waiting in `delivery`'s place: for its window, received when it was, with no
        /// check end kept (the person just tapped it again, so it is as fresh as the tap).
        func retapped(as delivery: Entry) -> Entry {
            moved(to: delivery.pending.scene, receivedAt: delivery.receivedAt, on: delivery.pending.receivedAt)
        }

        private func moved(
            to scene: SceneID?,
            receivedAt: TimeInterval,
            on date: Date,
            checkDeadline: Date? = nil
        ) -> Entry {
            var pending = PendingLink(
                id: self.pending.id,
                link: self.pending.link,
                source: self.pending.source,
                identity: self.pending.identity,
                receivedAt: date,
                scene: scene,
                targetContentIdentifier: self.pending.targetContentIdentifier
            )
            pending.checkDeadline = checkDeadline
            var link = self.link
            link.scene = scene
            return Entry(
                pending: pending,
                link: link,
                resolved: resolved.over(link),
                receivedAt: receivedAt,
                keptEndHere: checkDeadline != nil && keptEndHere
            )
        }
    }
}
