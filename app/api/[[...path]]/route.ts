import { toWebResponse } from "@/lib/api/responses";
import { handleApiRequest } from "@/lib/api/router";

// The merchant API, answered by lib/api's router. In production scripts/server.ts calls the router straight
// from node:http and requests never get here; under `npm run dev` they come through Next.js so that edits to
// lib/ hot-reload, and the router behaves the same either way.
async function handle(request: Request): Promise<Response> {
  return toWebResponse(await handleApiRequest(request));
}

export const GET = handle;
export const HEAD = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
export const OPTIONS = handle;
