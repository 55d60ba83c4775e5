// A TCP proxy in front of PostgreSQL that can stop forwarding without closing anything: what a server sees
// when the network to its database hangs (a dead switch, a firewall dropping packets), as opposed to a
// database that refuses connections. New connections are accepted and then left waiting too.
import net from "node:net";

export type FreezableProxy = {
  port: number;
  /** Stops forwarding in both directions; sockets stay open, so nothing errors on either side. */
  freeze(): void;
  /** Forwards again. With `reset`, the connections that lived through the freeze are cut instead (the partition killed them). */
  thaw(options?: { reset?: boolean }): void;
  close(): Promise<void>;
};

type Pair = { client: net.Socket; server: net.Socket | null; held: Array<[net.Socket, Buffer]> };

export async function startFreezableProxy(upstream: { host: string; port: number }): Promise<FreezableProxy> {
  let frozen = false;
  const pairs = new Set<Pair>();
  const waiting: Pair[] = [];

  const end = (pair: Pair) => {
    pair.client.destroy();
    pair.server?.destroy();
    pairs.delete(pair);
  };
  // Bytes read while frozen are held back, not forwarded: to the other side the connection just went quiet.
  const forward = (pair: Pair, to: net.Socket) => (chunk: Buffer) => {
    if (frozen) pair.held.push([to, chunk]);
    else to.write(chunk);
  };
  const connect = (pair: Pair) => {
    const server = net.connect(upstream.port, upstream.host);
    pair.server = server;
    pair.client.on("data", forward(pair, server));
    server.on("data", forward(pair, pair.client));
    server.on("error", () => end(pair)).on("close", () => end(pair));
  };

  const proxy = net.createServer((client) => {
    const pair: Pair = { client, server: null, held: [] };
    pairs.add(pair);
    client.on("error", () => end(pair)).on("close", () => end(pair));
    if (frozen) waiting.push(pair);
    else connect(pair);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));

  return {
    port: (proxy.address() as net.AddressInfo).port,
    freeze() {
      frozen = true;
    },
    thaw({ reset = false } = {}) {
      frozen = false;
      for (const pair of [...pairs]) {
        if (reset && pair.server) end(pair);
        else for (const [to, chunk] of pair.held.splice(0)) to.write(chunk);
      }
      for (const pair of waiting.splice(0)) if (pairs.has(pair)) connect(pair);
    },
    async close() {
      for (const pair of [...pairs]) end(pair);
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
