import { requestPath } from "@/lib/api/node-bridge";
import { toWebResponse } from "@/lib/api/responses";
import { serveApiRequest } from "@/lib/api/router";
import { appOrigin } from "@/lib/platform/env";

// The merchant API, answered by lib/api's router. In production scripts/server.ts calls the router straight
// from node:http and requests never get here; under `npm run dev` they come through Next.js so that edits to
// lib/ hot-reload, and the router behaves the same either way.
async function handle(request: Request): Promise<Response> {
  // Absolute URLs come from APP_URL, as in production, never from the Host header.
  const apiRequest = {
    method: request.method,
    url: `${appOrigin()}${requestPath(request.url)}`,
    headers: request.headers,
    body: request.body,
  };
  return toWebResponse(await serveApiRequest(apiRequest));
}

export const GET = handle;
export const HEAD = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
export const OPTIONS = handle;
