import { API_ERRORS, methodNotAllowedMessage } from "./api-errors";
import { jsonResponse } from "./responses";
import type { ApiResponse } from "./types";

const AUTH_PREFIX = "/api/auth/";

/**
 * next-auth's endpoints as this app configures it (app/_lib/auth.ts: Credentials only, sign-in page /login):
 * each action, the methods it is used with, and the providers it takes. The dashboard signs in and out
 * through server actions; these serve a form post to the credentials callback and next-auth's own client.
 */
const AUTH_ACTIONS: Record<string, { methods: string[]; providers?: string[] }> = {
  csrf: { methods: ["GET"] },
  session: { methods: ["GET", "POST"] },
  providers: { methods: ["GET"] },
  // A redirect to /login.
  signin: { methods: ["GET"] },
  signout: { methods: ["POST"] },
  callback: { methods: ["POST"], providers: ["credentials"] },
  // Where next-auth sends a browser after a fault of its own; its page is HTML, so it is answered here.
  error: { methods: ["GET"] },
};

/** The status next-auth's error page gives each error it names; any other is the client's. */
const ERROR_STATUS = new Map([
  ["Configuration", 500],
  ["AccessDenied", 403],
  ["Verification", 403],
]);

/** The API's own words for these statuses. */
const MESSAGES = new Map([
  [400, "Bad Request"],
  [403, API_ERRORS.unauthorized.message],
  [404, API_ERRORS.notFound.message],
  [500, API_ERRORS.serverError.message],
]);

function message(status: number): ApiResponse {
  return jsonResponse(status, { message: MESSAGES.get(status) });
}

/**
 * A JSON answer for a request under /api/auth/ that next-auth would answer otherwise: a malformed path (a 500
 * in text from Next.js), an unknown action or provider (a redirect to its error page, or a JSON string), a
 * method it does not serve (an empty 405, or HTML pages such as its sign-out form) and its error page. Every
 * answer under /api is JSON. Undefined: next-auth answers (OPTIONS too, which Next.js answers with Allow).
 */
export function authRouteAnswer(method: string | undefined, target: string): ApiResponse | undefined {
  if (!target.startsWith(AUTH_PREFIX) || method === "OPTIONS") return undefined;
  const queryAt = target.indexOf("?");
  const path = target.slice(AUTH_PREFIX.length, queryAt < 0 ? undefined : queryAt);
  let segments: string[];
  try {
    segments = path.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return message(400);
  }
  const [action = "", provider, ...rest] = segments;
  const served = Object.hasOwn(AUTH_ACTIONS, action) ? AUTH_ACTIONS[action] : undefined;
  const knownProvider = served?.providers
    ? served.providers.includes(provider ?? "")
    : provider === undefined;
  if (!served || !knownProvider || rest.length > 0) return message(404);
  if (!served.methods.includes(method ?? "GET")) {
    const allowed = served.methods;
    return jsonResponse(
      405,
      { message: methodNotAllowedMessage(method ?? "GET", `api/auth/${segments.join("/")}`, allowed) },
      { Allow: allowed.join(", ") },
    );
  }
  if (action === "error") {
    const error = new URLSearchParams(queryAt < 0 ? "" : target.slice(queryAt)).get("error") ?? "";
    return message(ERROR_STATUS.get(error) ?? 400);
  }
  return undefined;
}
