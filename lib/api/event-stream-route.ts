import { eventStreamQuerySchema, openEventStream, runEventStream } from "@/lib/events/event-stream";
import { parseInput } from "@/lib/platform/validation";
import { defineRoute } from "./define-route";
import { message, validationErrorResponse } from "./openapi-parts";
import { jsonResponse } from "./responses";

const STREAM_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-store",
  // nginx and similar proxies pass each event on at once instead of buffering the response.
  "X-Accel-Buffering": "no",
};
const lastEventIdSchema = eventStreamQuerySchema.pick({ after: true });

/**
 * GET /api/events/stream: Server-Sent Events, each `id:` the event id, `event:` its type, `data:` the exact
 * webhook body. `Last-Event-ID` (or `?after=`) replays what came after that event, then goes on live. Opening
 * counts once against the rate limit; the token may hold EVENT_STREAMS_PER_TOKEN streams at once.
 */
export const eventStreamRoute = defineRoute({
  method: "GET",
  path: "/api/events/stream",
  scope: "read",
  summary: "Stream events live, as Server-Sent Events (read scope is enough)",
  description:
    "`text/event-stream`: each message has `id:` the event id, `event:` its type and `data:` the exact webhook body, one line of JSON. With `Last-Event-ID` (or `after`), every retained event after that one is sent first, in order, then new ones as they happen, on whichever server process committed them (within about 0.1 s). A `: heartbeat` comment comes every 15 s. Opening counts once against the rate limit; a token holds at most EVENT_STREAMS_PER_TOKEN streams (5 by default) at once.",
  query: eventStreamQuerySchema,
  headers: [
    {
      name: "Last-Event-ID",
      in: "header",
      description: "The id of the last event received: replay what came after it.",
      schema: { type: "string" },
    },
  ],
  responses: {
    200: {
      description: "The stream; it stays open until the client closes it or the server stops.",
      content: { "text/event-stream": { schema: { type: "string" } } },
    },
    410: {
      description: "The Last-Event-ID is not one of the merchant's retained events (unknown or pruned).",
      content: {
        "application/json": {
          schema: message("The last event id evt_… is not one of your retained events …"),
        },
      },
    },
    422: validationErrorResponse("A bad types list or event id."),
  },
  handler: async ({ db, env, token, merchantId, request, query: { types, after: afterQuery } }) => {
    const header = request.headers.get("last-event-id")?.trim();
    const after = header ? parseInput(lastEventIdSchema, { after: header }).after : afterQuery;
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
  },
});
