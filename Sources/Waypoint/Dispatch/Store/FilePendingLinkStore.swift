import Foundation

/// Pending links in a file, as a log: each change appends one line (a link kept, or one
/// forgotten), so receiving or finishing a link costs the same with 3 pending or 10,000. The log
/// is rewritten, atomically, only when it holds more than twice as many lines as live links; and
/// removed when the last link finishes.
///
/// With a ``PendingLinkKey`` every line is sealed (HMAC-SHA256): a line edited or written by hand
/// is refused when the links are restored and reported as a
/// ``DispatchEvent/Kind/storeProblem(message:)`` — it never runs, so a link cannot be relabelled to
/// pass a route's `sources`. A sealed line copied again after its link was removed is refused too.
/// What a seal cannot tell is a whole older copy of the file put back: its links run at most once
/// more, within ``DispatcherConfiguration/maximumPendingAge`` of their receipt. Without a key, the
/// file is trusted as written; give one to a store in an app.
///
/// On Apple platforms the file is written with data protection
/// (`completeFileProtectionUntilFirstUserAuthentication`): encrypted until the device is first
/// unlocked after a restart, readable after, so a link can still be restored when the app launches
/// in the background.
///
/// ```swift
/// let store = FilePendingLinkStore(url: applicationSupport.appendingPathComponent("waypoint-pending"), key: key)
/// ```
///
/// A file none of whose lines can be read is moved aside to `NAME.damaged` and reported, never a crash.
public final class FilePendingLinkStore: PendingLinkStore, Sendable {
    /// The log file. Its folder is made on the first write: on a new install, Application Support
    /// does not exist yet.
    public let url: URL
    let key: PendingLinkKey?
    private let state = Locked(State())

    struct State {
        /// The live links by id, with the order they were first kept in; nil until the file is read.
        var live: [UUID: (order: Int, link: PendingLink)]?
        var nextOrder = 0
        /// Lines in the file, live or not.
        var lines = 0
        /// Lines refused when the file was read, not yet reported by ``restore()``.
        var refused: [String] = []
        /// The file, open for appending, between changes: a change costs one write.
        var handle: FileHandle?
    }

    /// A store in the file at `url`, its lines sealed with `key` when there is one. Nothing is read
    /// until the first call.
    public init(url: URL, key: PendingLinkKey? = nil) {
        self.url = url
        self.key = key
    }

    /// One line of the log.
    enum Record: Codable {
        case put(link: PendingLink)
        case remove(id: UUID)
    }

    /// The pending links in the order they were first kept, and the lines refused since the last
    /// call, each with why (a seal that does not match, a line that cannot be read).
    public func restore() throws -> StoredPendingLinks {
        try state.withLock { state in
            if state.live == nil { try read(into: &state) }
            defer { state.refused = [] }
            return StoredPendingLinks(links: Self.links(in: state), refused: state.refused)
        }
    }

    /// The pending links in the order they were first kept. Lines refused on the way stay for
    /// ``restore()`` to report, so reading the links first never hides them from the dispatcher.
    public func load() throws -> [PendingLink] {
        try state.withLock { state in
            if state.live == nil { try read(into: &state) }
            return Self.links(in: state)
        }
    }

    /// The live links, in the order they were first kept.
    private static func links(in state: State) -> [PendingLink] {
        (state.live ?? [:]).values.map { $0 }.stablySorted { $0.order < $1.order }.map(\.link)
    }

    /// Appends one line that keeps `link`, in place of the link with its id.
    public func put(_ link: PendingLink) throws {
        try state.withLock { state in
            if state.live == nil { try read(into: &state) }
            try append(line(.put(link: link)), &state)
            state.lines += 1
            let order = state.live?[link.id]?.order ?? state.nextOrder
            state.nextOrder = max(state.nextOrder, order + 1)
            state.live?[link.id] = (order, link)
        }
    }

    /// Appends one line that forgets the link `id` (nothing for an unknown id); the last removal
    /// deletes the file instead.
    public func remove(_ id: UUID) throws {
        try state.withLock { state in
            if state.live == nil { try read(into: &state) }
            guard state.live?[id] != nil else { return }
            state.live?[id] = nil
            if state.live?.isEmpty ?? true {
                try removeFile(&state)
                state.lines = 0
                return
            }
            try append(removal(id), &state)
            state.lines += 1
            if state.lines > 2 * (state.live?.count ?? 0) + 64 { try rewrite(&state) }
        }
    }

    /// Rewrites the file, atomically, with exactly `links`.
    public func save(_ links: [PendingLink]) throws {
        try state.withLock { state in
            state.live = Dictionary(
                links.enumerated().map { ($1.id, (order: $0, link: $1)) },
                uniquingKeysWith: { _, last in last }
            )
            state.nextOrder = links.count
            try rewrite(&state)
        }
    }

    // MARK: The file

    /// Reads the file into `state`. On failure `state.live` stays nil, so the next change reads
    /// again rather than taking an unread file for an empty one.
    private func read(into state: inout State) throws {
        guard FileManager.default.fileExists(atPath: url.path) else {
            state.live = [:]
            return
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw WaypointError(
                .storeFailed,
                message: "The pending-link store \(url.path) cannot be read: \(error.localizedDescription)"
            )
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var readable = 0
        var live: [UUID: (order: Int, link: PendingLink)] = [:]
        var removed: Set<UUID> = []
        var order = 0
        var lineCount = 0
        func keep(_ link: PendingLink) {
            live[link.id] = (live[link.id]?.order ?? order, link)
            order += 1
        }
        if data.first == UInt8(ascii: "[") {
            // A store written before the log: one JSON array, never sealed.
            if let links = try? decoder.decode([PendingLink].self, from: data) {
                if key == nil {
                    links.forEach(keep)
                    readable = max(1, links.count)
                } else {
                    readable = 1
                    state.refused.append(
                        "\(links.count) pending link(s) in \(url.path) were written without a seal; they were not restored."
                    )
                }
            }
        } else {
            let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
            for (number, line) in lines.enumerated() {
                lineCount += 1
                // A last line without its line break was cut short by a crash or a full disk.
                if number == lines.count - 1, data.last != UInt8(ascii: "\n") {
                    state.refused.append("The last line of \(url.path) was cut short; it was dropped.")
                    continue
                }
                guard let space = line.firstIndex(of: UInt8(ascii: " ")) else {
                    state.refused.append(
                        "Line \(number + 1) of \(url.path) is not a pending-link record; it was dropped."
                    )
                    continue
                }
                let seal = String(decoding: line[line.startIndex..<space], as: UTF8.self)
                let body = Array(line[line.index(after: space)...])
                if let key, !SHA256.equal(Array(key.seal(body).utf8), Array(seal.utf8)) {
                    readable += 1
                    state.refused.append(
                        "Line \(number + 1) of \(url.path) does not carry this store's seal (edited by hand?); "
                            + "its link was not restored: \(String(decoding: body.prefix(300), as: UTF8.self))"
                    )
                    continue
                }
                guard let record = try? decoder.decode(Record.self, from: Data(body)) else {
                    state.refused.append("Line \(number + 1) of \(url.path) cannot be read; it was dropped.")
                    continue
                }
                readable += 1
                switch record {
                case .put(let link) where removed.contains(link.id):
                    state.refused.append(
                        "Line \(number + 1) of \(url.path) keeps a link removed before it (copied again?); it was not restored."
                    )
                case .put(let link): keep(link)
                case .remove(let id):
                    live[id] = nil
                    removed.insert(id)
                }
            }
        }
        guard readable > 0 else {
            let aside = url.appendingPathExtension("damaged")
            try? FileManager.default.removeItem(at: aside)
            try? FileManager.default.moveItem(at: url, to: aside)
            state.live = [:]
            state.lines = 0
            state.refused = []
            throw WaypointError(
                .storeFailed,
                message: "The pending-link store \(url.path) is damaged (no line of it can be read); it was set aside "
                    + "at \(aside.path)."
            )
        }
        state.live = live
        state.nextOrder = order
        state.lines = lineCount
        // A log with many dead lines, one cut short, or in the old format, is written anew; if that
        // fails, the links read are restored all the same and the next change appends.
        if state.lines > 2 * live.count + 64 || data.first == UInt8(ascii: "[") || data.last != UInt8(ascii: "\n") {
            try? rewrite(&state)
        }
    }

    private func line(_ record: Record) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return sealed(try encoder.encode(record))
    }

    /// A removal's line, written as the encoder would write it: it is the most frequent change.
    private func removal(_ id: UUID) -> Data {
        sealed(Data(#"{"remove":{"id":"\#(id.uuidString)"}}"#.utf8))
    }

    private func sealed(_ body: Data) -> Data {
        let seal = key?.seal(Array(body)) ?? "-"
        return Data(seal.utf8) + Data(" ".utf8) + body + Data("\n".utf8)
    }

    private func append(_ data: Data, _ state: inout State) throws {
        if state.handle == nil {
            guard FileManager.default.fileExists(atPath: url.path) else {
                try create(data)
                return
            }
            state.handle = try FileHandle(forWritingTo: url)
            try state.handle?.seekToEnd()
        }
        do {
            try state.handle?.write(contentsOf: data)
        } catch {
            // A write cut short leaves a partial line: the file is written whole before the next change.
            closeHandle(&state)
            try rewrite(&state)
            throw error
        }
    }

    private func rewrite(_ state: inout State) throws {
        let links = Self.links(in: state)
        closeHandle(&state)
        guard !links.isEmpty else {
            try removeFile(&state)
            state.lines = 0
            return
        }
        var data = Data()
        for link in links { data += try line(.put(link: link)) }
        try create(data)
        state.lines = links.count
    }

    /// Writes the whole file, making its folder first: on a new install the app's Application
    /// Support folder does not exist yet, and without it no link would outlive the process.
    private func create(_ data: Data) throws {
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try data.write(to: url, options: Self.writingOptions)
    }

    private func removeFile(_ state: inout State) throws {
        closeHandle(&state)
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    }

    /// An atomic rewrite replaces the file: a handle open on the old one must not write there.
    private func closeHandle(_ state: inout State) {
        try? state.handle?.close()
        state.handle = nil
    }

    #if canImport(Darwin)
    static let writingOptions: Data.WritingOptions = [.atomic, .completeFileProtectionUntilFirstUserAuthentication]
    #else
    static let writingOptions: Data.WritingOptions = [.atomic]
    #endif
}
