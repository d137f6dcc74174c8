/// An asynchronous lock: `acquire` waits, without blocking a thread, until no one else holds it.
/// An actor alone does not serialise work that awaits in the middle, so transactions take turns here.
actor OneAtATime {
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the lock to the next in line, who then holds it.
    func release() {
        if waiting.isEmpty {
            held = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
