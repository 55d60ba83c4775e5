import "server-only";
import type { z } from "zod";
import { getDb, type Database } from "@/db/client";
import { ACCOUNT_KEY_SCOPE, type KeyScope } from "@/db/enums";
import { readFor } from "@/db/replicas";
import { clientIp } from "@/lib/platform/client-ip";
import type { ExtendDeadline } from "@/lib/platform/deadline";
import { getEnv, type Env } from "@/lib/platform/env";
import { rateLimitRejections } from "@/lib/platform/metrics";
import { consumeRateLimit, type RateLimitDecision } from "@/lib/platform/rate-limit";
import { afterMerchantWrite } from "@/lib/platform/read-your-writes";
import { idParam, parseInput } from "@/lib/platform/validation";
import { authenticateApiToken, type AuthenticatedToken } from "@/lib/tokens/authenticate";
import { noteRateLimited } from "@/lib/tokens/rate-limited";
import { API_ERRORS, HttpError } from "./api-errors";
import { queryValue, refuseNulInQuery } from "./pagination";
import { parseJsonBody, type RequestBody } from "./request-body";
import { errorResponse, jsonResponse, unauthenticatedResponse } from "./responses";
import type { ApiRequest, ApiResponse } from "./types";

export type ApiContext<Params, Query = Record<string, never>> = {
  request: ApiRequest;
  db: Database;
  /** A lag-tolerant read of this merchant's data: on a read replica that has its writes, else the primary. */
  read: <T>(work: (db: Database) => Promise<T>) => Promise<T>;
  env: Env;
  token: AuthenticatedToken;
  merchantId: number;
  params: Params;
  /** The request URL, parsed once by the router. */
  url: URL;
  /** The route's query schema's output: every key read as PHP reads it (queryValue), then validated. */
  query: Query;
  /**
   * The body as a JSON object (`{}` when empty), read and checked by the router (size, time, type) before any
   * database work and parsed here: a route that takes no fields still refuses a body that is not a JSON object.
   */
  body: Record<string, unknown>;
  /** Moves the request's deadline before work that waits on a processor (PROCESSOR_TIMEOUT), not the database. */
  extendDeadline: ExtendDeadline;
};

/** Requests without a valid token are counted per client IP, so a flood of bad tokens is throttled too. */
const UNAUTHENTICATED_PER_MINUTE = 100;
const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/** The token of an `Authorization: Bearer …` header, if it has one. */
export function bearerToken(request: ApiRequest): string | undefined {
  return BEARER.exec(request.headers.get("authorization") ?? "")?.[1];
}
const READS = new Set(["GET", "HEAD"]);
const NO_QUERY = Object.freeze({});

function tooManyAttempts(rateLimit: RateLimitDecision): ApiResponse {
  rateLimitRejections.inc();
  return jsonResponse(
    429,
    { message: API_ERRORS.tooManyAttempts.message },
    {
      "Retry-After": String(rateLimit.retryAfterSeconds),
      "X-RateLimit-Reset": String(Math.ceil(Date.now() / 1000) + rateLimit.retryAfterSeconds),
    },
  );
}

/** Which keys a route serves (define-route.ts). */
export type RouteScope = "read" | "write" | typeof ACCOUNT_KEY_SCOPE;

/** An account key serves only the account's routes, and an environment's key never serves those. */
function scopeServes(route: RouteScope, key: KeyScope): boolean {
  if (route === ACCOUNT_KEY_SCOPE || key === ACCOUNT_KEY_SCOPE) return route === key;
  return route === "read" || key === "write";
}

/**
 * The one API wrapper: bearer auth and the rate limit (one database round trip), scope check, the body's
 * refusal if the router refused it, a NUL in the query refused, the query validated, then the handler with a
 * typed context; every error goes through the one error mapper; every response carries the rate-limit headers.
 * Routes reach it through defineRoute.
 */
export function apiRoute<Params, Query>(
  handler: (context: ApiContext<Params, Query>) => Promise<ApiResponse>,
  options: {
    scope: RouteScope;
    sandboxOnly: boolean;
    query: z.ZodObject | undefined;
    integerParams: string[];
  },
) {
  const { scope, sandboxOnly, query: querySchema, integerParams } = options;
  const queryKeys = querySchema ? Object.keys(querySchema.shape) : [];
  /** What a request without a query string reads (defaults only): validated once, the first time. */
  let emptyQuery: unknown;
  const readQuery = (url: URL) => {
    if (!querySchema) return NO_QUERY;
    const parse = () =>
      parseInput(querySchema, Object.fromEntries(queryKeys.map((key) => [key, queryValue(url, key)])));
    if (url.search !== "") return parse();
    // A schema that requires a parameter throws each time, and nothing is kept.
    emptyQuery ??= Object.freeze(parse());
    return emptyQuery;
  };
  return async (
    request: ApiRequest,
    params: Record<string, string>,
    url: URL,
    body: RequestBody,
    extendDeadline: ExtendDeadline = () => {},
  ): Promise<ApiResponse> => {
    let rateLimit: RateLimitDecision | undefined;
    let response: ApiResponse;
    let caller: ApiResponse["caller"];
    try {
      const db = getDb();
      const env = getEnv();
      const bearer = bearerToken(request);
      const auth = bearer
        ? await authenticateApiToken(db, bearer, env.API_RATE_LIMIT_PER_MINUTE)
        : { token: null };
      if (!auth.token) {
        rateLimit = await consumeRateLimit(db, `ip:${clientIp(request.headers)}`, UNAUTHENTICATED_PER_MINUTE);
        response = rateLimit.allowed ? unauthenticatedResponse() : tooManyAttempts(rateLimit);
      } else {
        rateLimit = auth.rateLimit;
        caller = { merchantId: auth.token.merchantId, tokenId: auth.token.tokenId };
        if (!rateLimit.allowed) {
          response = tooManyAttempts(rateLimit);
          noteRateLimited(db, auth.token.merchantId, auth.token.tokenId, rateLimit.limit);
        } else if (!scopeServes(scope, auth.token.scope))
          response = jsonResponse(403, { message: API_ERRORS.unauthorized.message });
        else if (sandboxOnly && auth.token.environment === "live") throw HttpError.of("notFound");
        // Too large, too slow, cut short or not JSON: no handler runs, whether or not it reads the body.
        else if (body instanceof HttpError) response = errorResponse(body);
        else {
          const merchantId = auth.token.merchantId;
          // A malformed id names nothing: 404 before the query is read, as Laravel's route constraints do.
          for (const name of integerParams)
            if (!idParam.safeParse(params[name]).success) throw HttpError.of("notFound");
          refuseNulInQuery(url);
          const query = readQuery(url);
          const input = READS.has(request.method) ? {} : parseJsonBody(body);
          response = await handler({
            request,
            db,
            read: (work) => readFor(merchantId, work),
            env,
            token: auth.token,
            merchantId,
            params: params as Params,
            url,
            query: query as Query,
            body: input,
            extendDeadline,
          });
          if (!READS.has(request.method)) await afterMerchantWrite(merchantId);
        }
      }
    } catch (error) {
      response = errorResponse(error);
    }
    if (caller) response.caller = caller;
    if (rateLimit) {
      response.headers["X-RateLimit-Limit"] = String(rateLimit.limit);
      response.headers["X-RateLimit-Remaining"] = String(rateLimit.remaining);
    }
    return response;
  };
}
