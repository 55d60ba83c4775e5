import type { z } from "zod";
import type { ExtendDeadline } from "@/lib/platform/deadline";
import { apiRoute, type ApiContext, type RouteScope } from "./api-route";
import type { RequestBody } from "./request-body";
import type { ApiRequest, ApiResponse } from "./types";

// One declaration per endpoint (STYLE.md, unkey's createRoute): the router matches on it, the API wrapper
// validates its query with it, and the OpenAPI document is generated from it.

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** `{id}` in a path template, as the handler's `params`. */
type PathParams<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? { [Key in Name | keyof PathParams<Rest>]: string }
  : Record<never, string>;

/** An OpenAPI object as written in the document (a parameter, a response, a schema). */
export type OpenApiObject = Record<string, unknown>;

/** What a route declares; everything but the handler also goes into the OpenAPI document. */
export type RouteDeclaration<Path extends string, Query extends z.ZodObject> = {
  method: Method;
  /** OpenAPI's template (`/api/payments/{id}`); without the slash it is the route's name in a 405 message. */
  path: Path;
  /**
   * Which keys it serves, checked before the handler runs (403 otherwise): `read`, any environment's key;
   * `write`, one with the write scope; `sandboxes`, an account key (`pay_acct_…`) and nothing else.
   */
  scope: RouteScope;
  summary: string;
  description?: string;
  /** The JSON schema and description of each `{param}` of the path. */
  params?: { [Name in keyof PathParams<Path>]: { schema: OpenApiObject; description?: string } };
  /**
   * Validated before the handler runs (422 in Laravel's words); each key is one query parameter of the
   * document, described by its field's `.describe()` and `.meta()` (openapi-parts.ts, queryParameters).
   */
  query?: Query;
  /** The request headers it reads, as the document's parameters (its query's come from `query`). */
  headers?: OpenApiObject[];
  /** The document's requestBody; the domain function that takes the body validates it. */
  body?: OpenApiObject;
  /** The largest body this route reads, when larger than every route's 16 KiB (a dispute's evidence). */
  maxBodyBytes?: number;
  /**
   * How long its work may take before a 503, when longer than API_DEADLINE_MS by design: a test clock's advance
   * runs a month of steps in one request.
   */
  deadlineMs?: number;
  /** What this route answers besides what every route does (401, 429, 500, 503; 408, 413, 415 with a body). */
  responses: Record<number, OpenApiObject>;
  handler: (context: ApiContext<PathParams<Path>, z.output<Query>>) => Promise<ApiResponse>;
};

/** How the router calls a route: the path's parameters decoded, the URL parsed and the body read once. */
export type Handler = (
  request: ApiRequest,
  params: Record<string, string>,
  url: URL,
  body: RequestBody,
  extendDeadline?: ExtendDeadline,
) => Promise<ApiResponse>;

/** A declared route as the list holds it. */
export type Route = Omit<RouteDeclaration<string, z.ZodObject>, "handler" | "params"> & {
  params?: Record<string, { schema: OpenApiObject; description?: string }>;
  serve: Handler;
};

/** A route as the router and the document take it: its handler inside the one API wrapper (apiRoute). */
export function defineRoute<
  Path extends string,
  Query extends z.ZodObject = z.ZodObject<Record<never, never>>,
>(declaration: RouteDeclaration<Path, Query>): Route {
  const { handler, ...rest } = declaration;
  const params = (declaration.params ?? {}) as Record<string, { schema: OpenApiObject }>;
  const serve = apiRoute(handler, {
    scope: declaration.scope,
    // Test helpers exist only in sandboxes (DESIGN.md, "Live and sandboxes"): 404 with a live key.
    sandboxOnly: declaration.path.startsWith("/api/test-helpers/"),
    query: declaration.query,
    integerParams: Object.keys(params).filter((name) => params[name]!.schema.type === "integer"),
  });
  return { ...(rest as Omit<Route, "serve">), serve };
}

/** The names of a path template's parameters, in order. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}
