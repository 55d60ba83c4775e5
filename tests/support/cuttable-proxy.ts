// A TCP proxy in front of the server whose connections a test can cut (a laptop's sleep, a dropped Wi-Fi),
// and which can refuse new ones for a while.
import net from "node:net";

export class CuttableProxy {
  private readonly sockets = new Set<net.Socket>();
  private refusing = false;
  private server?: net.Server;

  constructor(private readonly target: { host: string; port: number }) {}

  listen(port: number): Promise<void> {
    this.server = net.createServer((client) => {
      if (this.refusing) return client.destroy();
      const upstream = net.connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
    return new Promise((resolve) => this.server!.listen(port, "127.0.0.1", () => resolve()));
  }

  /** Drops every open connection, and refuses new ones until `restore()`. */
  cut(): void {
    this.refusing = true;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.refusing = false;
  }

  close(): Promise<void> {
    this.cut();
    return new Promise((resolve) => this.server?.close(() => resolve()));
  }
}
