import { advanceClock, readClock, toClockResource } from "@/lib/test-clock/clock";
import { defineRoute } from "./define-route";
import {
  bodyRefusals,
  dataResponse,
  errorResponse,
  jsonBody,
  ref,
  validationErrorResponse,
} from "./openapi-parts";
import { jsonResponse } from "./responses";

// A sandbox's test clock (DESIGN.md, "Test clock"): where it stands, and the one way to move it. Test helpers,
// so a live key gets 404 (defineRoute).

/** The document's components for these routes. */
export const clockSchemas = {
  Clock: {
    type: "object",
    properties: {
      sandbox_id: { type: "integer" },
      now: { type: "string", format: "date-time", description: "The sandbox's time." },
      test_clock: {
        type: "boolean",
        description:
          "Whether the sandbox runs on a test clock (false: on real time, and `now` is the time now).",
      },
    },
  },
  AdvanceClock: {
    type: "object",
    description: "One of `to` and `by`.",
    properties: {
      to: {
        type: "string",
        description: "An instant: a date (its midnight, UTC) or a date-time.",
        examples: ["2026-11-01"],
      },
      by: { type: "string", description: "An ISO 8601 duration.", examples: ["P1D", "PT2H", "P1M"] },
    },
  },
};

export const getClockRoute = defineRoute({
  method: "GET",
  path: "/api/test-helpers/clock",
  scope: "read",
  summary: "Test helper: where the sandbox's clock stands",
  responses: {
    200: dataResponse("The sandbox's time.", ref("Clock")),
    404: errorResponse("notFound", "A live key: test helpers do not exist in live."),
  },
  handler: async ({ db, merchantId }) =>
    jsonResponse(200, { data: toClockResource(await readClock(db, merchantId)) }),
});

export const advanceClockRoute = defineRoute({
  method: "POST",
  path: "/api/test-helpers/clock/advance",
  scope: "write",
  summary: "Test helper: move the sandbox's test clock forward, running what falls due on the way",
  body: jsonBody("AdvanceClock"),
  // A month of a busy sandbox's steps (BENCHMARKS.md: 60 days with 1,000 payments in about a second).
  deadlineMs: 60_000,
  responses: {
    200: dataResponse(
      "The clock where it was sent, every time-driven step that fell due on the way done, in time order.",
      ref("Clock"),
    ),
    400: errorResponse("malformedJson"),
    ...bodyRefusals,
    404: errorResponse("notFound", "A live key: test helpers do not exist in live."),
    422: validationErrorResponse(
      "Neither or both of to and by, an instant or duration that does not parse, a time before the clock's or more than 400 days past today, or a sandbox without a test clock. The clock did not move.",
    ),
  },
  handler: async ({ db, merchantId, body }) =>
    jsonResponse(200, { data: toClockResource(await advanceClock(db, merchantId, body)) }),
});
