import Waypoint

/// Resolutions under way, by delivery identity: a cold start hands one push to the scene and to
/// the notification center's delegate at once, and the service is asked once for both. Kept only
/// while under way: the same link tapped again later is asked again (it may have expired since).
actor ResolutionsUnderWay {
    /// One question to the service, and how many deliveries still wait on its answer.
    private struct Resolution {
        let task: Task<IntakeResult, Never>
        /// Decremented by a waiter's cancellation handler, which runs on no actor.
        let waiting: Locked<Int>
    }

    private var underWay: [String: Resolution] = [:]

    func result(for identity: String, _ make: @escaping @Sendable () async -> IntakeResult) async -> IntakeResult {
        // A resolution every waiter gave up on was cancelled: a delivery arriving now asks anew.
        if let resolution = underWay[identity],
            resolution.waiting.withLock({ count in
                guard count > 0 else { return false }
                count += 1
                return true
            })
        {
            return await Self.value(of: resolution)
        }
        let resolution = Resolution(task: Task { await make() }, waiting: Locked(1))
        underWay[identity] = resolution
        let result = await Self.value(of: resolution)
        if underWay[identity]?.task == resolution.task { underWay[identity] = nil }
        return result
    }

    /// The work runs in a task of its own, shared by every delivery of the link: it is cancelled
    /// only when the last of them is (a scene gone away while the notification center's delegate
    /// still waits on the same push must not lose it).
    private static func value(of resolution: Resolution) async -> IntakeResult {
        await withTaskCancellationHandler {
            await resolution.task.value
        } onCancel: {
            let last = resolution.waiting.withLock { count in
                count -= 1
                return count == 0
            }
            if last { resolution.task.cancel() }
        }
    }
}
