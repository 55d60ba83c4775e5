import type { Worker } from "node:cluster";
import type http from "node:http";
import net from "node:net";

/** What the primary and an API process say to each other about connections. */
const HANDED_CONNECTION = "payments:connection";
const CONNECTION_TAKEN = "payments:connection-taken";
const API_READY = "payments:api-ready";
const API_STOPPING = "payments:api-stopping";
type Handed = { type: typeof HANDED_CONNECTION | typeof CONNECTION_TAKEN; id: number };
const isHanded = (message: unknown, type: Handed["type"]): message is Handed =>
  typeof message === "object" && message !== null && (message as Handed).type === type;

/**
 * How long a connection waits for an API process when none is ready (every one died and is being replaced,
 * which takes a boot, about 5 s here) before it is answered 503.
 */
const WAIT_FOR_PROCESS_MS = 15_000;
/** How long an answered connection that is closing keeps reading what its client still sends. */
const LINGER_MS = 2000;

const UNAVAILABLE_BODY = JSON.stringify({ message: "Service Unavailable" });
const UNAVAILABLE = [
  "HTTP/1.1 503 Service Unavailable",
  "Content-Type: application/json",
  `Content-Length: ${Buffer.byteLength(UNAVAILABLE_BODY)}`,
  "Retry-After: 5",
  "Connection: close",
  "",
  UNAVAILABLE_BODY,
].join("\r\n");

/**
 * The primary's listening socket. node:cluster's own round robin closes the port when the last API process
 * exits, so while replacements booted every connection was refused (9 s when all of them died). Here the
 * primary keeps the port for the server's whole life: it accepts each connection and hands it, unread, to the
 * ready API processes in turn (what node:cluster does too); with none ready (at boot, or all being replaced)
 * a connection waits for one, and after WAIT_FOR_PROCESS_MS is answered a JSON 503. None is refused.
 */
export class ConnectionDispatcher {
  private readonly ready: Worker[] = [];
  private turn = 0;
  private lastId = 0;
  /**
   * Connections sent to each process and not yet taken. The primary keeps its copy until the process says it
   * has its own: a process killed in between (its IPC messages die with it) would otherwise leave the client
   * waiting forever on a connection Node holds open for a retransmission that never comes.
   */
  private readonly inTransit = new Map<Worker, Map<number, net.Socket>>();
  private readonly waiting = new Map<net.Socket, NodeJS.Timeout>();
  private readonly server = net.createServer({ pauseOnConnect: true }, (socket) => this.hand(socket));

  /** `onReady` runs each time an API process starts taking connections. */
  constructor(private readonly onReady: (worker: Worker) => void) {}

  listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, () => resolve());
    });
  }

  /** Stops accepting; connections still waiting for a process are answered 503. */
  close(): void {
    this.server.close();
    for (const socket of [...this.waiting.keys()]) this.refuse(socket);
  }

  /** Follows an API process: connections go to it once it says it is ready, until it stops or exits. */
  add(worker: Worker): void {
    worker.on("message", (message: unknown) => {
      if (message === API_READY) {
        this.ready.push(worker);
        this.onReady(worker);
        for (const socket of [...this.waiting.keys()]) {
          clearTimeout(this.waiting.get(socket));
          this.waiting.delete(socket);
          this.hand(socket);
        }
      } else if (message === API_STOPPING) this.remove(worker);
      else if (isHanded(message, CONNECTION_TAKEN)) {
        this.inTransit.get(worker)?.get(message.id)?.destroy();
        this.inTransit.get(worker)?.delete(message.id);
      }
    });
    worker.once("exit", () => {
      this.remove(worker);
      const lost = [...(this.inTransit.get(worker)?.values() ?? [])];
      this.inTransit.delete(worker);
      for (const socket of lost) this.hand(socket);
    });
  }

  private remove(worker: Worker): void {
    const index = this.ready.indexOf(worker);
    if (index >= 0) this.ready.splice(index, 1);
  }

  private hand(socket: net.Socket): void {
    if (socket.destroyed) return;
    const worker = this.ready[this.turn++ % Math.max(this.ready.length, 1)];
    if (!worker) return this.wait(socket);
    const id = ++this.lastId;
    const sent = this.inTransit.get(worker) ?? new Map<number, net.Socket>();
    this.inTransit.set(worker, sent.set(id, socket));
    // Closing the primary's copy (once taken) closes a file descriptor, not the connection the process holds.
    worker.send({ type: HANDED_CONNECTION, id } satisfies Handed, socket, { keepOpen: true }, (error) => {
      if (!error || !sent.delete(id)) return;
      this.remove(worker);
      this.hand(socket);
    });
  }

  private wait(socket: net.Socket): void {
    socket.once("close", () => {
      clearTimeout(this.waiting.get(socket));
      this.waiting.delete(socket);
    });
    socket.on("error", () => socket.destroy());
    this.waiting.set(
      socket,
      setTimeout(() => this.refuse(socket), WAIT_FOR_PROCESS_MS),
    );
  }

  /** A 503 for a connection no process took; what the client sent meanwhile is read and dropped, not reset. */
  private refuse(socket: net.Socket): void {
    clearTimeout(this.waiting.get(socket));
    this.waiting.delete(socket);
    socket.resume();
    socket.end(UNAVAILABLE);
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  }
}

/**
 * In an API process: serves the connections the primary hands over, and tells it when to start (now: the
 * platform has booted) and to stop (`stopTaking`, when the process stops) handing them.
 */
export function serveHandedConnections(server: http.Server): { stopTaking: () => void } {
  // Node starts a server's request timeouts (headersTimeout, requestTimeout: the slow-client defences) and
  // its connection tracking (closeIdleConnections) on 'listening'; this server never listens itself.
  server.emit("listening");
  process.on("message", (message: unknown, handle: unknown) => {
    if (!isHanded(message, HANDED_CONNECTION) || !(handle instanceof net.Socket)) return;
    // A server that accepts a connection turns Nagle off itself (http's noDelay); a handed one is not accepted
    // here. With Nagle on, a page written in several chunks waited for the client's delayed ACK (about 40 ms)
    // on every kept-alive request after the first, and a stream's event for the packet before it.
    handle.setNoDelay(true);
    server.emit("connection", handle);
    process.send?.({ type: CONNECTION_TAKEN, id: message.id } satisfies Handed);
  });
  process.send?.(API_READY);
  return { stopTaking: () => process.send?.(API_STOPPING) };
}
