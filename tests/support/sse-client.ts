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
