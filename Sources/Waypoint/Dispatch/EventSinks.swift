import Foundation

/// Everyone who hears a dispatcher's events: observers called in place, and streams.
struct EventSinks<Destination: Hashable & Sendable>: Sendable {
    private var observers: [UUID: @Sendable (DispatchEvent<Destination>) -> Void] = [:]
    private var streams: [UUID: AsyncStream<DispatchEvent<Destination>>.Continuation] = [:]

    mutating func add(_ observer: @escaping @Sendable (DispatchEvent<Destination>) -> Void) -> UUID {
        let id = UUID()
        observers[id] = observer
        return id
    }

    mutating func add(_ stream: AsyncStream<DispatchEvent<Destination>>.Continuation, id: UUID) {
        streams[id] = stream
    }

    mutating func remove(_ id: UUID) {
        observers[id] = nil
        streams[id] = nil
    }

    func send(_ event: DispatchEvent<Destination>) {
        for observer in observers.values { observer(event) }
        for continuation in streams.values { continuation.yield(event) }
    }
}
