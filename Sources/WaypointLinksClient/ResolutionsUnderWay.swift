import Waypoint

/// Resolutions under way, by delivery identity: a cold start hands one push to the scene and to
/// the notification center's delegate at once, and the service is asked once for both. Kept only
/// while under way: the same link tapped again later is asked again (it may have expired since).
actor ResolutionsUnderWay {
    private var tasks: [String: Task<IntakeResult, Never>] = [:]

    func result(for identity: String, _ make: @escaping @Sendable () async -> IntakeResult) async -> IntakeResult {
        if let task = tasks[identity] { return await Self.value(of: task) }
        let task = Task { await make() }
        tasks[identity] = task
        let result = await Self.value(of: task)
        tasks[identity] = nil
        return result
    }

    /// The work runs in a task of its own, so a waiter's cancellation is passed on by hand.
    private static func value(of task: Task<IntakeResult, Never>) async -> IntakeResult {
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }
}
