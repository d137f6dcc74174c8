import Logging
import NIOPosix
import SQLiteNIO

/// The one connection that writes to a SQLite file, with a thread of its own.
///
/// SQLite lets one connection write at a time; two writing connections in one process meet "database
/// is locked" and wait for each other on the threads that also serve reads. Here every write of the
/// process takes its turn on this connection instead, so none waits on another in SQLite, and reads
/// (on their own connections and threads, WAL mode) never wait for a write.
///
/// Single statements that arrive while the connection is busy are committed together, in one
/// transaction (group commit): with `synchronous=FULL` every commit waits for the disk, so links
/// created at once share that wait instead of queueing for one each. Should any statement of a
/// group fail, the group is rolled back and each statement run again on its own, so one bad
/// statement never spoils another's write.
///
/// Each write runs to its end in a task of its own: a request cancelled half-way (its client gone,
/// a shutdown) never leaves the connection inside a transaction. A transaction that cannot be rolled
/// back ends with the connection: it is closed and the next write opens a new one.
///
/// ```swift
/// let writer = try await SQLiteWriter.open(path: "links.sqlite", logger: logger)
/// try await writer.execute("DELETE FROM links WHERE code = ?", [.text("spring")])
/// try await writer.transaction { run in _ = try await run("INSERT …", binds) }
/// ```
actor SQLiteWriter {
    /// Runs one statement inside the transaction `transaction(_:)` holds open.
    typealias Statement = @Sendable (String, [SQLiteData]) async throws(StoreError) -> [SQLiteRow]

    let path: String
    let logger: Logger
    private let threadPool: NIOThreadPool
    /// nil after a transaction could not be rolled back, until the next write opens it again.
    private var connection: SQLiteConnection?
    private let turn = OneAtATime()

    private init(path: String, logger: Logger, threadPool: NIOThreadPool) {
        self.path = path
        self.logger = logger
        self.threadPool = threadPool
    }

    static func open(path: String, logger: Logger) async throws(StoreError) -> SQLiteWriter {
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        let writer = SQLiteWriter(path: path, logger: logger, threadPool: threadPool)
        do throws(StoreError) {
            _ = try await writer.connected()
        } catch {
            await writer.close()
            throw error
        }
        return writer
    }

    /// A statement waiting to be written, and who waits for its rows.
    private struct Pending {
        let sql: String
        let binds: [SQLiteData]
        let answer: CheckedContinuation<Result<[SQLiteRow], StoreError>, Never>
    }

    /// Statements handed to ``execute(_:_:)`` and not yet written.
    private var pending: [Pending] = []
    /// Whether a task is writing `pending`.
    private var draining = false
    /// The most statements one group held (the tests check that groups form).
    private(set) var largestGroup = 0

    /// One statement, committed before it returns: on its own, or with the statements that arrived
    /// while the connection was busy, in one transaction.
    func execute(_ sql: String, _ binds: [SQLiteData] = []) async throws(StoreError) -> [SQLiteRow] {
        let result = await withCheckedContinuation { answer in
            pending.append(Pending(sql: sql, binds: binds, answer: answer))
            if !draining {
                draining = true
                // Unstructured: no caller's cancellation reaches the writes.
                Task { await self.drain() }
            }
        }
        return try result.get()
    }

    /// Writes `pending`, a group at a time, until none is left.
    private func drain() async {
        while !pending.isEmpty {
            await turn.acquire()
            let group = pending
            pending = []
            largestGroup = max(largestGroup, group.count)
            let results: [Result<[SQLiteRow], StoreError>]
            do throws(StoreError) {
                results = try await write(group, on: try await connected())
            } catch {
                results = Array(repeating: .failure(error), count: group.count)
            }
            await turn.release()
            for (statement, result) in zip(group, results) { statement.answer.resume(returning: result) }
        }
        draining = false
    }

    /// Runs a group's statements: one alone in autocommit; several in one transaction, or, should
    /// any of them or the commit fail, each again on its own after a rollback.
    private func write(
        _ group: [Pending],
        on connection: SQLiteConnection
    ) async throws(StoreError) -> [Result<
        [SQLiteRow], StoreError
    >] {
        func alone(_ statement: Pending) async -> Result<[SQLiteRow], StoreError> {
            do throws(StoreError) {
                return .success(try await SQLiteLinkStore.query(statement.sql, statement.binds, on: connection))
            } catch {
                return .failure(error)
            }
        }
        guard group.count > 1 else { return [await alone(group[0])] }
        // BEGIN or COMMIT failing (the file locked by another process past the busy timeout, the
        // disk full) fails the whole group: each statement alone would only wait as long again.
        _ = try await SQLiteLinkStore.query("BEGIN IMMEDIATE", [], on: connection)
        var rows: [[SQLiteRow]] = []
        var statementFailed = false
        do throws(StoreError) {
            for statement in group {
                rows.append(try await SQLiteLinkStore.query(statement.sql, statement.binds, on: connection))
            }
        } catch {
            statementFailed = true
        }
        if !statementFailed {
            do throws(StoreError) {
                _ = try await SQLiteLinkStore.query("COMMIT", [], on: connection)
                return rows.map { .success($0) }
            } catch {
                try await rollBack(connection, after: error)
                throw error
            }
        }
        // One statement failed: the others are written without it, each on its own.
        try await rollBack(connection, after: StoreError("a statement of the group failed"))
        var results: [Result<[SQLiteRow], StoreError>] = []
        for statement in group { results.append(await alone(statement)) }
        return results
    }

    /// Rolls back the open transaction; when that fails, the connection may still be inside it and
    /// ends (the next write opens a new one), and `failure` is thrown.
    private func rollBack(_ connection: SQLiteConnection, after failure: StoreError) async throws(StoreError) {
        guard (try? await SQLiteLinkStore.query("ROLLBACK", [], on: connection)) == nil else { return }
        logger.error("rollback failed; reopening the write connection", metadata: ["error": "\(failure)"])
        await discard(connection)
        throw failure
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction, committed when it returns and rolled back
    /// when it throws. `BEGIN IMMEDIATE` takes SQLite's write lock first, so another process (a
    /// `waypoint-links token` command) waits for it (the busy timeout) rather than failing half-way.
    func transaction<Value: Sendable>(
        _ body: @escaping @Sendable (_ run: Statement) async throws(StoreError) -> Value
    ) async throws(StoreError) -> Value {
        try await inTurn { connection throws(StoreError) in
            let run: Statement = { sql, binds throws(StoreError) in
                try await SQLiteLinkStore.query(sql, binds, on: connection)
            }
            _ = try await run("BEGIN IMMEDIATE", [])
            let value: Value
            do throws(StoreError) {
                value = try await body(run)
                _ = try await run("COMMIT", [])
            } catch {
                do throws(StoreError) {
                    _ = try await run("ROLLBACK", [])
                } catch let rollback {
                    // The connection may still be inside the transaction: no later write may use it.
                    self.logger.error(
                        "rollback failed; reopening the write connection",
                        metadata: ["error": "\(rollback)"]
                    )
                    await self.discard(connection)
                }
                throw error
            }
            return value
        }
    }

    /// Waits for this process's turn, then runs `work` on the connection in an unstructured task,
    /// which the caller's cancellation does not reach.
    private func inTurn<Value: Sendable>(
        _ work: @escaping @Sendable (SQLiteConnection) async throws(StoreError) -> Value
    ) async throws(StoreError) -> Value {
        let result: Result<Value, StoreError> = await Task {
            await self.turn.acquire()
            let result: Result<Value, StoreError>
            do throws(StoreError) {
                result = .success(try await work(try await self.connected()))
            } catch {
                result = .failure(error)
            }
            await self.turn.release()
            return result
        }.value
        return try result.get()
    }

    /// The connection, opened (with the service's pragmas) when there is none.
    private func connected() async throws(StoreError) -> SQLiteConnection {
        if let connection { return connection }
        let opened: SQLiteConnection
        do {
            opened = try await SQLiteConnection.open(
                storage: .file(path: path),
                threadPool: threadPool,
                logger: logger,
                on: MultiThreadedEventLoopGroup.singleton.any()
            )
        } catch {
            throw StoreError("Could not open the SQLite database at '\(path)': \(error)")
        }
        do throws(StoreError) {
            for pragma in SQLiteLinkStore.writerPragmas { _ = try await SQLiteLinkStore.query(pragma, [], on: opened) }
        } catch {
            await SQLiteLinkStore.close(opened)
            throw error
        }
        connection = opened
        return opened
    }

    private func discard(_ failed: SQLiteConnection) async {
        guard connection === failed else { return }
        connection = nil
        await SQLiteLinkStore.close(failed)
    }

    /// Closes the connection and stops its thread once the writes under way have ended.
    func close() async {
        await turn.acquire()
        if let connection { await SQLiteLinkStore.close(connection) }
        connection = nil
        try? await threadPool.shutdownGracefully()
        await turn.release()
    }
}
