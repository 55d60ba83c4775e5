import { jsonResponse } from "@/lib/api/responses";

// Any /api path no route serves: a JSON 404, never Next's HTML page.
function notFound(): Response {
  return jsonResponse(404, { message: "Not Found" });
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
