import { API_ERRORS, methodNotAllowedMessage } from "./api-errors";
import { buildOpenApiDocument } from "./openapi";
import { createPaymentRoute, listPaymentsRoute, showPaymentRoute } from "./payment-routes";
import { errorResponse, jsonResponse } from "./responses";
import type { ApiRequest, ApiResponse } from "./types";

type Handler = (request: ApiRequest, params: Record<string, string>, url: URL) => Promise<ApiResponse>;
type Route = { pattern: RegExp; name: string; methods: { GET: Handler; POST?: Handler } };

const openApiRoute: Handler = (_request, _params, url) =>
  Promise.resolve(jsonResponse(200, buildOpenApiDocument(url.origin)));

/** Every merchant-facing endpoint. `name` is the route as Laravel names it in its 405 message. */
const routes: Route[] = [
  {
    pattern: /^\/api\/payments$/,
    name: "api/payments",
    methods: { GET: listPaymentsRoute, POST: createPaymentRoute },
  },
  {
    pattern: /^\/api\/payments\/(?<id>[^/]+)$/,
    name: "api/payments/{id}",
    methods: { GET: showPaymentRoute },
  },
  { pattern: /^\/api\/openapi\.json$/, name: "api/openapi.json", methods: { GET: openApiRoute } },
];

/** `/api/auth/*` belongs to the dashboard's sign-in (next-auth); every other `/api` path is the REST API. */
export function isMerchantApiPath(pathname: string): boolean {
  return (pathname === "/api" || pathname.startsWith("/api/")) && !pathname.startsWith("/api/auth/");
}

/** Path parameters, percent-decoded; undefined when an encoding is malformed (then the path is not found). */
function decodeParams(groups: Record<string, string>): Record<string, string> | undefined {
  try {
    return Object.fromEntries(Object.entries(groups).map(([key, value]) => [key, decodeURIComponent(value)]));
  } catch {
    return undefined;
  }
}

function allowedMethods(route: Route): string[] {
  return route.methods.POST ? ["GET", "HEAD", "POST"] : ["GET", "HEAD"];
}

/**
 * Dispatches an API request: HEAD runs GET without the body, an unserved method is a JSON 405 with `Allow`
 * worded as Laravel words it, an unknown path a JSON 404. A trailing slash is ignored, as Laravel does.
 */
export async function handleApiRequest(request: ApiRequest): Promise<ApiResponse> {
  try {
    const url = URL.parse(request.url);
    // A Host header no URL can be made of: nothing a handler could act on.
    if (!url) return jsonResponse(400, { message: "Bad Request" });
    const pathname = url.pathname.replace(/(?<=.)\/$/, "");
    for (const route of routes) {
      const match = route.pattern.exec(pathname);
      if (!match) continue;
      const params = decodeParams(match.groups ?? {});
      if (!params) break;
      const allowed = allowedMethods(route);
      if (request.method === "OPTIONS")
        return { status: 204, headers: { Allow: [...allowed, "OPTIONS"].join(", ") }, body: null };
      const handler =
        request.method === "HEAD"
          ? route.methods.GET
          : route.methods[request.method as keyof Route["methods"]];
      if (!handler) {
        return jsonResponse(
          405,
          { message: methodNotAllowedMessage(request.method, route.name, allowed) },
          { Allow: allowed.join(", ") },
        );
      }
      return await handler(request, params, url);
    }
    return jsonResponse(404, { message: API_ERRORS.notFound.message });
  } catch (error) {
    return errorResponse(error);
  }
}
