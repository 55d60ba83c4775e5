import { eventStreamQuerySchema, openEventStream, runEventStream } from "@/lib/events/event-stream";
import { parseInput } from "@/lib/platform/validation";
import { apiRoute } from "./api-route";
import { queryValue } from "./pagination";
import { jsonResponse } from "./responses";

/**
 * GET /api/events/stream: Server-Sent Events, each `id:` the event id, `event:` its type, `data:` the exact
 * webhook body. `Last-Event-ID` (or `?after=`) replays what came after that event, then goes on live. Opening
 * counts once against the rate limit; the token may hold EVENT_STREAMS_PER_TOKEN streams at once.
 */
const STREAM_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-store",
  // nginx and similar proxies pass each event on at once instead of buffering the response.
  "X-Accel-Buffering": "no",
};

export const eventStreamRoute = apiRoute(async ({ db, env, token, merchantId, url, request }) => {
  const afterValue = queryValue(url, "after");
  const { types, after } = parseInput(eventStreamQuerySchema, {
    types: queryValue(url, "types"),
    after: request.headers.get("last-event-id")?.trim() || afterValue,
  });
  // HEAD has no body to stream: it takes no lease (it would count against the cap until it expired).
  if (request.method === "HEAD") return { status: 200, headers: { ...STREAM_HEADERS }, body: null };
  const opened = await openEventStream(db, {
    merchantId,
    tokenId: token.tokenId,
    after,
    cap: env.EVENT_STREAMS_PER_TOKEN,
  });
  if (opened.kind === "unknown_cursor")
    return jsonResponse(410, {
      message: `The last event id ${after} is not one of your retained events (unknown, or older than the ${env.EVENT_RETENTION_DAYS}-day retention). Reconnect without it to receive new events; GET /api/events lists what is retained.`,
    });
  if (opened.kind === "busy")
    return jsonResponse(
      429,
      {
        message: `This API key already has ${opened.cap} event streams open, the most allowed at once. Close one, or use another key.`,
      },
      { "Retry-After": "5" },
    );
  return {
    status: 200,
    headers: { ...STREAM_HEADERS },
    body: null,
    stream: (sink) => runEventStream(opened, { merchantId, types }, sink),
  };
});
