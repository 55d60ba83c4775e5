import { handleApiRequest } from "@/lib/api/router";

// The merchant API, answered by lib/api's router. In production scripts/server.ts calls the router straight
// from node:http and requests never get here; under `npm run dev` they come through Next.js so that edits to
// lib/ hot-reload, and the router behaves the same either way.
export const GET = handleApiRequest;
export const HEAD = handleApiRequest;
export const POST = handleApiRequest;
export const PUT = handleApiRequest;
export const PATCH = handleApiRequest;
export const DELETE = handleApiRequest;
export const OPTIONS = handleApiRequest;
