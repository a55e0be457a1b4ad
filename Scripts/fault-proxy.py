#!/usr/bin/env python3
"""A TCP proxy on loopback that cuts connections at random, for the crash tests of durable
machines (Scripts/durability.sh --faults): it forwards 127.0.0.1:PORT to the server and, every
0 to 2 x MEAN seconds, closes one of the open connections, both ways, at once.

    Scripts/fault-proxy.py --target 127.0.0.1:5432 [--port 0] [--mean-seconds 0.5] [--seed N]

It prints the port it listens on, then one line per connection it cut, on standard error. It only
listens on 127.0.0.1 and only forwards to a loopback address.
"""
import argparse
import asyncio
import ipaddress
import random
import sys


def loopback(host):
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--target", required=True, help="HOST:PORT of the server, on loopback")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--mean-seconds", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=None)
    options = parser.parse_args()
    host, _, port = options.target.rpartition(":")
    if not loopback(host):
        sys.exit(f"fault-proxy: the target {host} is not a loopback address")
    rng = random.Random(options.seed)
    connections = set()

    async def pipe(reader, writer):
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def serve(client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection(host, int(port))
        except OSError:
            client_writer.close()
            return
        pair = (client_writer, server_writer)
        connections.add(pair)
        try:
            await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))
        finally:
            connections.discard(pair)

    server = await asyncio.start_server(serve, "127.0.0.1", options.port)
    print(server.sockets[0].getsockname()[1], flush=True)
    cuts = 0
    while True:
        await asyncio.sleep(rng.uniform(0, 2 * options.mean_seconds))
        if not connections:
            continue
        client, upstream = rng.choice(sorted(connections, key=id))
        connections.discard((client, upstream))
        for writer in (client, upstream):
            transport = writer.transport
            if transport is not None:
                transport.abort()
        cuts += 1
        print(f"fault-proxy: cut connection {cuts}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
