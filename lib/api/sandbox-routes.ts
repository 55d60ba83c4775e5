import {
  createSandbox,
  deleteSandbox,
  listSandboxes,
  toSandboxResource,
} from "@/lib/environments/environments";
import { defineRoute } from "./define-route";
import {
  bodyRefusals,
  dataResponse,
  errorResponse,
  jsonBody,
  ref,
  validationErrorResponse,
} from "./openapi-parts";
import { pathId } from "./refund-routes";
import { jsonResponse } from "./responses";
import { apiActor } from "./security-actor";

// The Sandboxes API (DESIGN.md, "Live and sandboxes"), for QA and CI: an account key (`pay_acct_…`) makes a
// sandbox for a test run, with a test key for it, and deletes it afterwards. No other key serves these routes,
// and an account key serves no other.

const sandboxSchema = {
  type: "object",
  properties: {
    id: { type: "integer" },
    name: { type: "string", examples: ["ci-1234"] },
    environment: { type: "string", enum: ["sandbox"] },
    created_at: { type: "string", format: "date-time" },
    clock: {
      type: ["string", "null"],
      format: "date-time",
      description: "Where its test clock stands; null: it runs on real time.",
    },
  },
};
/** The document's components for these routes. */
export const sandboxSchemas = {
  Sandbox: sandboxSchema,
  CreateSandbox: {
    type: "object",
    required: ["name"],
    properties: {
      name: { type: "string", maxLength: 100, examples: ["ci-1234"] },
      clock: {
        type: "string",
        description:
          "A test clock's start: a date (its midnight, UTC) or a date-time, up to 400 days back. The sandbox then stands at that time until `POST /api/test-helpers/clock/advance` moves it.",
        examples: ["2026-10-01"],
      },
    },
  },
  CreatedSandbox: {
    ...sandboxSchema,
    properties: {
      ...sandboxSchema.properties,
      token: { type: "string", description: "A `pay_test_…` key for the sandbox, shown only here." },
    },
  },
};
const accountKeyOnly = {
  403: errorResponse("unauthorized", "The key is not an account key (pay_acct_…)."),
};

export const listSandboxesRoute = defineRoute({
  method: "GET",
  path: "/api/sandboxes",
  scope: "sandboxes",
  summary: "List the account's sandboxes (account key)",
  responses: {
    200: {
      description: 'Every sandbox of the account, the first ("Test") first.',
      content: {
        "application/json": {
          schema: {
            type: "object",
            properties: { data: { type: "array", items: { $ref: ref("Sandbox") } } },
          },
        },
      },
    },
    ...accountKeyOnly,
  },
  handler: async ({ db, merchantId }) => {
    const sandboxes = await listSandboxes(db, merchantId);
    return jsonResponse(200, { data: sandboxes.map(toSandboxResource) });
  },
});

export const createSandboxRoute = defineRoute({
  method: "POST",
  path: "/api/sandboxes",
  scope: "sandboxes",
  summary: "Make a sandbox, with a test key for it (shown in this answer only)",
  body: jsonBody("CreateSandbox"),
  responses: {
    201: dataResponse(
      "Created, with `token`: a `pay_test_…` key for the sandbox, shown only here.",
      ref("CreatedSandbox"),
      { Location: { description: "/api/sandboxes/{id}", schema: { type: "string" } } },
    ),
    ...accountKeyOnly,
    400: errorResponse("malformedJson"),
    ...bodyRefusals,
    422: validationErrorResponse(
      "The name is missing, too long or taken, the clock is not an instant, in the future or more than 400 days back, or the account has SANDBOXES_PER_ACCOUNT sandboxes. Nothing was made.",
    ),
  },
  handler: async (context) => {
    const { db, merchantId, body } = context;
    const { sandbox, token } = await createSandbox(db, merchantId, body, await apiActor(context));
    return jsonResponse(
      201,
      { data: { ...toSandboxResource(sandbox), token } },
      { Location: `/api/sandboxes/${sandbox.id}` },
    );
  },
});

export const deleteSandboxRoute = defineRoute({
  method: "DELETE",
  path: "/api/sandboxes/{id}",
  scope: "sandboxes",
  summary: "Delete a sandbox and all its data",
  params: { id: { description: "The sandbox's id.", schema: { type: "integer" } } },
  responses: {
    204: { description: "Deleted, with everything it held." },
    ...accountKeyOnly,
    404: errorResponse("notFound", "No sandbox of this account has this id."),
    409: { description: "The account's first sandbox holds its team, and is not deleted." },
  },
  handler: async (context) => {
    await deleteSandbox(context.db, context.merchantId, pathId(context.params.id), await apiActor(context));
    return { status: 204, headers: {}, body: null };
  },
});
