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

    /// One statement on its own: SQLite commits it when it ends.
    func execute(_ sql: String, _ binds: [SQLiteData] = []) async throws(StoreError) -> [SQLiteRow] {
        try await inTurn { connection throws(StoreError) in
            try await SQLiteLinkStore.query(sql, binds, on: connection)
        }
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
