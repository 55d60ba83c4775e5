import { createParser } from "eventsource-parser";
import type { Credentials } from "./config.js";
import { CliError, EXIT } from "./output.js";

export type StreamedEvent = { id: string; type: string; body: string };

export type StreamCallbacks = {
  onEvent: (event: StreamedEvent) => Promise<void>;
  /** A connection (re)opened; `resumedAfter` is the event it replays from. */
  onConnected: (resumedAfter: string | null) => void;
  /** The connection dropped; the next try is in `delayMs`. */
  onDisconnected: (reason: string, delayMs: number) => void;
};

/** Pauses before reconnecting: 0.5 s doubling to 10 s, back to 0.5 s once a connection has delivered. */
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 10_000;

/**
 * Reads GET /api/events/stream until `signal` aborts, reconnecting after any drop (a laptop's sleep, a server
 * restart, a network change) with Last-Event-ID set to the last event handled, so the server replays what
 * came in between: nothing is missed, and an id seen twice (replay overlapping live) is handled once. Events
 * are handled one at a time, in order. A refused key or a stream the server no longer knows ends it with a
 * CliError. `after` starts the stream after that event (a stored cursor, or --after).
 */
export async function followEventStream(
  credentials: Credentials,
  options: { types: string[] | null; signal: AbortSignal; after: string | null },
  callbacks: StreamCallbacks,
): Promise<void> {
  let lastEventId: string | null = options.after;
  const handled = new Set<string>();
  let delay = FIRST_DELAY_MS;
  // One queue for the whole run: events stay in order across reconnections.
  let queue = Promise.resolve();
  while (!options.signal.aborted) {
    const url = new URL(`${credentials.apiUrl}/api/events/stream`);
    if (options.types) url.searchParams.set("types", options.types.join(","));
    let reason: string;
    try {
      const response = await fetch(url, {
        headers: lastEventId
          ? {
              Authorization: `Bearer ${credentials.apiKey}`,
              Accept: "text/event-stream",
              "Last-Event-ID": lastEventId,
            }
          : { Authorization: `Bearer ${credentials.apiKey}`, Accept: "text/event-stream" },
        signal: options.signal,
      });
      if (response.status === 401)
        throw new CliError(
          "The API refused the key (401): log in again with a valid key.",
          EXIT.unauthenticated,
        );
      if (response.status === 403) throw new CliError("This key may not read events (403).", EXIT.refused);
      if (response.status === 410) {
        // The last event was pruned or never existed: go on from now, and say that some may be missing.
        reason = `the server no longer has ${lastEventId}; resuming from new events`;
        lastEventId = null;
      } else if (response.status === 422) {
        const body = (await response.json().catch(() => ({}))) as { message?: string };
        throw new CliError(body.message ?? "The API refused the stream's options (422).", EXIT.usage);
      } else if (!response.ok || !response.body) {
        reason = `HTTP ${response.status}`;
        const retryAfter = Number(response.headers.get("retry-after"));
        if (Number.isFinite(retryAfter) && retryAfter > 0) delay = Math.max(delay, retryAfter * 1000);
        await response.body?.cancel();
      } else {
        callbacks.onConnected(lastEventId);
        const parser = createParser({
          onEvent: (message) => {
            if (!message.id || !message.event) return;
            const event = { id: message.id, type: message.event, body: message.data };
            queue = queue.then(async () => {
              if (handled.has(event.id)) return;
              handled.add(event.id);
              await callbacks.onEvent(event);
              lastEventId = event.id;
              delay = FIRST_DELAY_MS;
            });
          },
        });
        const decoder = new TextDecoder();
        const reader = response.body.getReader();
        for (let read = await reader.read(); !read.done; read = await reader.read())
          parser.feed(decoder.decode(read.value, { stream: true }));
        await queue;
        reason = "the server closed the stream";
      }
    } catch (error) {
      if (error instanceof CliError) throw error;
      if (options.signal.aborted) return;
      await queue;
      reason =
        error instanceof Error
          ? error.cause instanceof Error
            ? error.cause.message
            : error.message
          : String(error);
    }
    if (options.signal.aborted) return;
    callbacks.onDisconnected(reason, delay);
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(MAX_DELAY_MS, delay * 2);
  }
}
