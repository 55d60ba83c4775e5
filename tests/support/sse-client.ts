// A Server-Sent Events client for tests: fetch's streamed body through eventsource-parser.
import { createParser, type EventSourceMessage } from "eventsource-parser";

export type OpenedSse = {
  status: number;
  headers: Headers;
  /** The JSON body of a refusal. */
  body: unknown;
  events: EventSourceMessage[];
  comments: string[];
  waitFor: (
    predicate: (events: EventSourceMessage[]) => boolean,
    timeoutMs?: number,
  ) => Promise<EventSourceMessage[]>;
  close: () => void;
  /** Resolves when the server ends the stream (or the test closes it). */
  ended: Promise<void>;
};

export async function openSse(
  url: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<OpenedSse> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: { Authorization: `Bearer ${token}`, Accept: "text/event-stream", ...headers },
    signal: abort.signal,
  });
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  let body: unknown = null;
  let ended: Promise<void> = Promise.resolve();
  if (response.ok && response.body) {
    const parser = createParser({
      onEvent: (event) => events.push(event),
      onComment: (comment) => comments.push(comment),
    });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    ended = (async () => {
      try {
        for (let read = await reader.read(); !read.done; read = await reader.read())
          parser.feed(decoder.decode(read.value, { stream: true }));
      } catch {
        // Closed by the test.
      }
    })();
  } else {
    body = await response.json().catch(() => null);
  }
  return {
    status: response.status,
    headers: response.headers,
    body,
    events,
    comments,
    async waitFor(predicate, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(events)) {
        if (Date.now() > deadline)
          throw new Error(
            `Timed out waiting for stream events; got ${events.map((event) => event.event).join(", ")}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return events;
    },
    close: () => abort.abort(),
    ended,
  };
}

export type FollowedStream = {
  /** Every event received, across reconnections, in order. */
  events: EventSourceMessage[];
  /** How many times the stream was opened (1 when it never broke). */
  opened: number;
  stop: () => void;
};

/**
 * A client that keeps a stream open the way EventSource does: when the connection breaks or the server
 * refuses (a 503 while the database fails over), it opens it again after `retryMs`, sending the last
 * event's id as `Last-Event-ID` so the server resumes after it.
 */
export function followSse(url: string, token: string, retryMs = 500): FollowedStream {
  const events: EventSourceMessage[] = [];
  const abort = new AbortController();
  const followed: FollowedStream = { events, opened: 0, stop: () => abort.abort() };
  void (async () => {
    while (!abort.signal.aborted) {
      const lastId = events.at(-1)?.id;
      try {
        const response = await fetch(url, {
          headers: {
            Authorization: `Bearer ${token}`,
            Accept: "text/event-stream",
            ...(lastId ? { "Last-Event-ID": lastId } : {}),
          },
          signal: abort.signal,
        });
        if (response.ok && response.body) {
          followed.opened++;
          const parser = createParser({ onEvent: (event) => events.push(event) });
          const decoder = new TextDecoder();
          const reader = response.body.getReader();
          for (let read = await reader.read(); !read.done; read = await reader.read())
            parser.feed(decoder.decode(read.value, { stream: true }));
        } else {
          await response.body?.cancel();
        }
      } catch {
        // Broken, or stopped: open again unless stopped.
      }
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  })();
  return followed;
}
