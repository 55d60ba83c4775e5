import { HttpError, MAX_BODY_BYTES } from "./api-errors";
import type { ApiRequest } from "./types";

/**
 * Reads a JSON object body of at most 16 KiB, counting bytes as they arrive so a chunked or lying upload is
 * cut off too. An empty body is `{}` (the validator then names the missing fields).
 */
export async function readJsonBody(request: ApiRequest): Promise<Record<string, unknown>> {
  const tooLarge = HttpError.of("bodyTooLarge");
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) throw tooLarge;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel();
        throw tooLarge;
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw HttpError.of("malformedJson");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw HttpError.of("bodyNotObject");
  }
  return parsed as Record<string, unknown>;
}
