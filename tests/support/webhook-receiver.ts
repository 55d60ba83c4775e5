// A merchant's webhook receiver for tests: a real HTTP server that verifies signatures with the official
// `standardwebhooks` library and answers each path with a scripted sequence of statuses.
import http from "node:http";
import { Webhook } from "standardwebhooks";

export type ReceivedWebhook = {
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  payload: { event: string; data: Record<string, unknown> };
  verified: boolean;
  receivedAt: number;
};

export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly scripts = new Map<string, number[]>();
  private readonly secrets = new Map<string, string>();
  private readonly delays = new Map<string, number>();
  private readonly holds = new Map<string, { released: Promise<void>; release: () => void }>();
  private server?: http.Server;

  /** The statuses a path answers with, in order; after the script runs out it answers 200. */
  script(path: string, statuses: number[]): void {
    this.scripts.set(path, [...statuses]);
  }

  /** Holds each answer on a path for `ms` (a slow receiver). */
  delay(path: string, ms: number): void {
    this.delays.set(path, ms);
  }

  /** Holds every answer on a path until `release(path)`: lets a test act while a send is under way. */
  hold(path: string): void {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holds.set(path, { released, release });
  }

  release(path: string): void {
    this.holds.get(path)?.release();
    this.holds.delete(path);
  }

  /** The secret to verify a path's deliveries with. */
  expectSecret(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  listen(port: number): Promise<void> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const path = request.url ?? "/";
        const body = Buffer.concat(chunks).toString("utf8");
        const headers = {
          "webhook-id": String(request.headers["webhook-id"]),
          "webhook-timestamp": String(request.headers["webhook-timestamp"]),
          "webhook-signature": String(request.headers["webhook-signature"]),
        };
        let verified = false;
        const secret = this.secrets.get(path);
        if (secret) {
          try {
            new Webhook(secret).verify(body, headers);
            verified = true;
          } catch {
            verified = false;
          }
        }
        this.received.push({
          path,
          id: headers["webhook-id"],
          timestamp: headers["webhook-timestamp"],
          signature: headers["webhook-signature"],
          body,
          payload: JSON.parse(body) as ReceivedWebhook["payload"],
          verified,
          receivedAt: Date.now(),
        });
        const status = this.scripts.get(path)?.shift() ?? 200;
        const answer = () =>
          response
            .writeHead(status, { "content-type": "text/plain" })
            .end(status === 200 ? "ok" : `failing with ${status}`);
        const delay = this.delays.get(path) ?? 0;
        const held = this.holds.get(path)?.released;
        if (held) void held.then(answer);
        else if (delay > 0) setTimeout(answer, delay);
        else answer();
      });
    });
    return new Promise((resolve) => this.server!.listen(port, "127.0.0.1", () => resolve()));
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }

  on(path: string): ReceivedWebhook[] {
    return this.received.filter((hook) => hook.path === path);
  }

  /** Waits until `predicate` holds for the deliveries on `path`. */
  async waitFor(
    path: string,
    predicate: (hooks: ReceivedWebhook[]) => boolean,
    timeoutMs = 20_000,
  ): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.on(path))) {
      if (Date.now() > deadline)
        throw new Error(
          `Timed out waiting for webhooks on ${path}; got ${JSON.stringify(this.on(path).map((hook) => hook.payload.event))}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return this.on(path);
  }
}
