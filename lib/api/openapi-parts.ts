import { z } from "zod";
import { API_ERRORS, type ApiErrorName } from "./api-errors";

// The building blocks every path of the OpenAPI document shares.

/** A reference to one of the document's component schemas. */
export const ref = (name: string) => `#/components/schemas/${name}`;

/** A JSON request body of a component schema. */
export const jsonBody = (name: string, { required = true } = {}) => ({
  required,
  content: { "application/json": { schema: { $ref: ref(name) } } },
});

export function schemaOf(schema: z.ZodType, io: "input" | "output" = "output") {
  const jsonSchema: Record<string, unknown> = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  delete jsonSchema.$schema;
  return jsonSchema;
}

export const message = (example: string) => ({
  type: "object",
  properties: { message: { type: "string", examples: [example] } },
  required: ["message"],
});

/** An error answer from the one table, with a description for this endpoint when it says more. */
export const errorResponse = (name: ApiErrorName, description: string = API_ERRORS[name].when) => ({
  description,
  content: { "application/json": { schema: message(API_ERRORS[name].message) } },
});

/** A body refused as it is read, by every route that takes one, whether or not the route reads it. */
export const bodyRefusals = {
  "408": errorResponse("bodyTimeout"),
  "413": errorResponse("bodyTooLarge"),
  "415": errorResponse("unsupportedMediaType"),
};

export const validationErrorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/ValidationError" } } },
});

export const rateLimitHeaders = {
  "X-RateLimit-Limit": {
    description: "Requests accepted per minute for this token.",
    schema: { type: "integer" },
  },
  "X-RateLimit-Remaining": { description: "Requests left before 429.", schema: { type: "integer" } },
};

export const common = {
  "401": errorResponse("unauthenticated"),
  "429": {
    ...errorResponse("tooManyAttempts"),
    headers: {
      "Retry-After": {
        description: "Seconds until a request will be accepted.",
        schema: { type: "integer" },
      },
    },
  },
  "500": errorResponse("serverError"),
  "503": {
    ...errorResponse("serviceUnavailable"),
    headers: {
      "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" } },
    },
  },
};

/** Laravel's paginated envelope around items of `itemRef`. */
export function pagedResponse(description: string, itemRef: string) {
  return {
    description,
    headers: rateLimitHeaders,
    content: {
      "application/json": {
        schema: {
          type: "object",
          properties: {
            data: { type: "array", items: { $ref: itemRef } },
            links: {
              type: "object",
              properties: Object.fromEntries(
                ["first", "last", "prev", "next"].map((key) => [key, { type: ["string", "null"] }]),
              ),
            },
            meta: {
              type: "object",
              properties: Object.fromEntries(
                ["current_page", "from", "last_page", "per_page", "to", "total"].map((key) => [
                  key,
                  { type: ["integer", "null"] },
                ]),
              ),
            },
          },
        },
      },
    },
  };
}

/** `{"data": <ref>}`, the single-resource envelope. */
export function dataResponse(description: string, ref: string, headers: Record<string, unknown> = {}) {
  return {
    description,
    headers: { ...headers, ...rateLimitHeaders },
    content: {
      "application/json": {
        schema: { type: "object", properties: { data: { $ref: ref } }, required: ["data"] },
      },
    },
  };
}

/**
 * A create's 201: `Location` naming the new record, and `{message, data}`. `data` is always there but on a
 * payment's create, where it comes with `Prefer: return=representation` (the seed's body is the message alone).
 */
export function createdResponse(
  description: string,
  location: string,
  message: string,
  ref: string,
  { dataAlways = true }: { dataAlways?: boolean } = {},
) {
  return {
    description,
    headers: { Location: { description: location, schema: { type: "string" } }, ...rateLimitHeaders },
    content: {
      "application/json": {
        schema: {
          type: "object",
          properties: { message: { type: "string", examples: [message] }, data: { $ref: ref } },
          required: dataAlways ? ["message", "data"] : ["message"],
        },
      },
    },
  };
}

/**
 * A route's query parameters, from the zod object the API validates the query with: one per key, in order.
 * Each field's JSON schema is zod's for its input, with the field's own metadata over it (`.meta()`: the
 * list-query helpers give theirs, which zod cannot read from a transform), and its description (`.describe()`)
 * lifted to the parameter. Every query parameter is optional: a list without filters is the whole list.
 */
export function queryParameters(query: z.ZodObject | undefined) {
  return Object.entries(query?.shape ?? {}).map(([name, field]) => {
    // An optional field's metadata is its inner schema's, with the optional's own (a description) over it.
    const inner = field instanceof z.ZodOptional ? (field.unwrap() as z.ZodType) : undefined;
    const { description, ...meta } = { ...inner?.meta(), ...(field as z.ZodType).meta() };
    const derived = schemaOf(field as z.ZodType, "input");
    delete derived.description;
    return {
      name,
      in: "query",
      required: false,
      ...(description ? { description } : {}),
      // A field that names its type in its metadata (a transform's) is described by that alone.
      schema: "type" in meta ? meta : { ...derived, ...meta },
    };
  });
}
