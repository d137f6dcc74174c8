import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's core context and the peer's address, which
/// the rate limits count by.
public struct LinkRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = CoreRequestContextStorage(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }
}
