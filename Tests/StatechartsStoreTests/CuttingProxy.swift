#if Store
#if PostgreSQL
import Statecharts
import PostgresNIO

/// A TCP proxy on loopback in front of a server, which closes every connection through it at once
/// when told to (``cut()``), as a network that fails does. It counts the bytes it relayed from the
/// server, so that a test can cut in the middle of a reply.
final class CuttingProxy: Sendable {
    /// The port it listens on, on 127.0.0.1.
    let port: Int
    private let listener: any Channel
    private let connections: Locked<[any Channel]>
    private let relayed: Locked<Int>

    /// Listens on a free port of 127.0.0.1 and relays each connection to `host`:`port`, which
    /// must be a loopback address.
    init(toHost host: String, port: Int) async throws {
        guard ["127.0.0.1", "localhost", "::1"].contains(host) else {
            throw ProxyError(description: "the proxy only relays to loopback, not to \(host)")
        }
        let connections = Locked([any Channel]())
        let relayed = Locked(0)
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.autoRead, value: false)
            .childChannelInitializer { client in
                connections.withLock { $0.append(client) }
                return ClientBootstrap(group: client.eventLoop)
                    .connect(host: host, port: port)
                    .flatMap { server in
                        connections.withLock { $0.append(server) }
                        return server.pipeline.addHandler(Relay(to: client, counting: relayed))
                            .flatMap { client.pipeline.addHandler(Relay(to: server, counting: nil)) }
                            .flatMap { client.setOption(ChannelOptions.autoRead, value: true) }
                    }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let bound = listener.localAddress?.port else {
            try await listener.close()
            throw ProxyError(description: "the proxy's socket has no port")
        }
        self.port = bound
        self.listener = listener
        self.connections = connections
        self.relayed = relayed
    }

    /// How many bytes the proxy relayed from the server to its clients so far.
    var bytesFromServer: Int { relayed.withLock { $0 } }

    /// Closes every connection through the proxy, both ways, at once.
    func cut() async {
        let open = connections.withLock { connections in
            defer { connections.removeAll() }
            return connections
        }
        for channel in open { try? await channel.close() }
    }

    /// Cuts every connection and stops listening.
    func stop() async {
        await cut()
        try? await listener.close()
    }

    struct ProxyError: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes what one side of a connection reads to the other, and closes the other when this
    /// side closes.
    private final class Relay: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let partner: any Channel
        let counter: Locked<Int>?

        init(to partner: any Channel, counting counter: Locked<Int>?) {
            self.partner = partner
            self.counter = counter
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let bytes = unwrapInboundIn(data)
            counter?.withLock { $0 += bytes.readableBytes }
            partner.writeAndFlush(bytes, promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            partner.close(promise: nil)
            context.fireChannelInactive()
        }
    }
}
#endif
#endif
