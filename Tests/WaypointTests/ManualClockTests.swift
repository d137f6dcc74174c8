import Foundation
import Testing
import WaypointTesting

@Suite("The tests' clock moves only when told, and waiting for its sleepers ends", .timeLimit(.minutes(1)))
struct ManualClockTests {
    @Test("Waiting for sleepers returns once that many sleep; advancing wakes those due")
    func waitsForSleepers() async throws {
        let clock = ManualClock()
        let woke = Task {
            async let short: Void = clock.sleep(seconds: 5)
            async let long: Void = clock.sleep(seconds: 10)
            _ = try await (short, long)
            return clock.now()
        }
        #expect(await finishes { await clock.waitForSleepers(2) })
        #expect(clock.sleeperCount == 2)
        clock.advance(by: 5)
        #expect(clock.sleeperCount == 1)
        clock.advance(by: 5)
        #expect(await finishes { _ = try? await woke.value })
        #expect(try await woke.value == 10)
    }

    @Test("A wait for sleepers that never come ends when its task is cancelled, waiting or not yet; so does a sleep")
    func cancellingEndsWaits() async throws {
        let clock = ManualClock()
        let waiting = Task { await clock.waitForSleepers(1) }
        #expect(await eventually { clock.sleeperWaitCount == 1 })  // suspended
        waiting.cancel()
        #expect(await finishes { await waiting.value })
        #expect(clock.sleeperWaitCount == 0)

        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await clock.waitForSleepers(1)
        }
        #expect(await finishes { await cancelledFirst.value })
        #expect(clock.sleeperWaitCount == 0)

        let sleeping = Task { try await clock.sleep(seconds: 60) }
        #expect(await finishes { await clock.waitForSleepers(1) })
        sleeping.cancel()
        #expect(await finishes { _ = try? await sleeping.value })
        await #expect(throws: CancellationError.self) { try await sleeping.value }
        #expect(clock.sleeperCount == 0)
    }
}
