// Trouble a test can order for the next API requests (the hosted page is never affected): Mollie's own 500, a
// proxy's HTML error page, a 200 that is not what was asked for, a 15-second wait, and connections cut before or
// after the request was carried out.
import type { ServerResponse } from "node:http";
import { apiError, HAL } from "./common";

export type FaultKind = "500" | "html" | "undocumented" | "slow" | "drop" | "drop-after";
export const FAULT_KINDS: readonly FaultKind[] = [
  "500",
  "html",
  "undocumented",
  "slow",
  "drop",
  "drop-after",
];
export const SLOW_MS = 15_000;

export class Faults {
  private readonly queue: Array<{ kind: FaultKind; method?: string }> = [];

  /** `method`: only requests of that method meet it (a test's create, not a background read). */
  add(kind: FaultKind, count: number, method?: string): void {
    if (!FAULT_KINDS.includes(kind)) throw new Error(`Mollie stand-in: unknown fault ${String(kind)}`);
    for (let i = 0; i < count; i += 1) this.queue.push({ kind, method });
  }

  /** The fault the next API request of `method` meets, if any; each request uses one up. */
  take(method: string): FaultKind | undefined {
    const index = this.queue.findIndex((fault) => fault.method === undefined || fault.method === method);
    return index === -1 ? undefined : this.queue.splice(index, 1)[0]!.kind;
  }
}

/**
 * Answers a request that meets a fault which replaces the answer altogether. Returns false for the faults that let
 * the request be carried out first ("slow", "drop-after").
 */
export function answerFault(kind: FaultKind, res: ServerResponse): boolean {
  if (kind === "500") {
    const error = apiError(500, "An internal server error occurred while processing your request.");
    res.writeHead(500, { "Content-Type": HAL });
    res.end(JSON.stringify(error.body));
    return true;
  }
  if (kind === "html") {
    res.writeHead(502, { "Content-Type": "text/html; charset=utf-8" });
    res.end(
      "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center>" +
        "<hr><center>nginx</center></body></html>\n",
    );
    return true;
  }
  if (kind === "undocumented") {
    res.writeHead(200, { "Content-Type": HAL });
    res.end(JSON.stringify({ ok: true, message: "maintenance window", _links: {} }));
    return true;
  }
  if (kind === "drop") {
    res.socket?.destroy();
    return true;
  }
  return false;
}
