import { validationError } from "@/lib/platform/errors";
import { API_ERRORS, HttpError, MAX_BODY_BYTES } from "./api-errors";
import type { ApiRequest } from "./types";

/** `application/json`, with no charset or UTF-8 (any case, as RFC 8259 allows no other). */
function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const [type, ...parameters] = value.split(";").map((part) => part.trim().toLowerCase());
  if (type !== "application/json") return false;
  return parameters.every(
    (parameter) => !parameter.startsWith("charset=") || /^charset="?utf-8"?$/.test(parameter),
  );
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a JSON object body of at most 16 KiB, counting bytes as they arrive so a chunked or lying upload is
 * cut off too. An empty body is `{}` (the validator then names the missing fields); a non-empty one must be
 * declared `application/json` (415 otherwise) and be valid UTF-8 (422, never stored as U+FFFD).
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
  const bytes = Buffer.concat(chunks);
  if (bytes.length === 0) return {};
  if (!isJsonContentType(request.headers.get("content-type"))) throw HttpError.of("unsupportedMediaType");
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw validationError(API_ERRORS.invalidUtf8.errors);
  }
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
