import { jsonResponse } from "@/lib/api/responses";
import { buildOpenApiDocument } from "@/lib/openapi";

export function GET(request: Request): Response {
  return jsonResponse(200, buildOpenApiDocument(new URL(request.url).origin));
}
