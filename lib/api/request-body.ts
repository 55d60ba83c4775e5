import { parse as parseLossless } from "lossless-json";
import { validationError, type FieldErrors } from "@/lib/platform/errors";
import { messages } from "@/lib/platform/validation";
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
/** Stands for a run of bytes that is not UTF-8: a lone surrogate, which no valid UTF-8 text decodes to. */
const NOT_UTF8 = "\udc80";

/**
 * Decodes bytes that are not all valid UTF-8, marking each bad run with NOT_UTF8. Every byte of a multibyte
 * UTF-8 character is >= 0x80, so cutting at ASCII bytes never splits a valid one: each non-ASCII run is
 * decoded on its own, by the platform's decoder.
 */
function decodeMarkingInvalid(bytes: Buffer): string {
  let text = "";
  let start = 0;
  while (start < bytes.length) {
    const ascii = bytes[start]! < 0x80;
    let end = start + 1;
    while (end < bytes.length && bytes[end]! < 0x80 === ascii) end++;
    const run = bytes.subarray(start, end);
    if (ascii) text += run.toString("latin1");
    else {
      try {
        text += strictUtf8.decode(run);
      } catch {
        text += NOT_UTF8;
      }
    }
    start = end;
  }
  return text;
}

function containsInvalid(value: unknown): boolean {
  if (typeof value === "string") return value.includes(NOT_UTF8);
  if (typeof value !== "object" || value === null) return false;
  return Object.entries(value).some(([key, each]) => containsInvalid(key) || containsInvalid(each));
}

/**
 * A body that is not valid UTF-8: 422 naming each top-level field whose text holds the bad bytes, as for a
 * lone surrogate or a NUL (`body` where they are in a name, or outside any string). Never stored as U+FFFD.
 */
function invalidUtf8Error(bytes: Buffer): Error {
  let parsed: unknown;
  try {
    // Only to find where the bad bytes are: the body is refused, so its numbers do not matter here.
    parsed = JSON.parse(decodeMarkingInvalid(bytes));
  } catch {
    return validationError(API_ERRORS.invalidUtf8.errors);
  }
  const errors: FieldErrors = {};
  if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
    for (const [key, value] of Object.entries(parsed)) {
      if (containsInvalid(key)) Object.assign(errors, API_ERRORS.invalidUtf8.errors);
      else if (containsInvalid(value)) errors[key] = [messages.wellFormed(key)];
    }
  return validationError(Object.keys(errors).length > 0 ? errors : API_ERRORS.invalidUtf8.errors);
}

/** Content-Encoding: none, or `identity` only; the server decodes no other (gzip would be read as JSON). */
function isIdentityEncoding(value: string | null): boolean {
  return (value ?? "").split(",").every((coding) => ["", "identity"].includes(coding.trim().toLowerCase()));
}

/** A request's body as the router read it: its bytes, or why it is refused. */
export type RequestBody = Buffer | HttpError;

/** A body that stalled or broke: the connection closes after the answer, rather than wait for the rest. */
const CLOSE = { Connection: "close" };

/**
 * Reads a request's body before any database work (the API's database deadline starts after it): at most
 * 16 KiB (or the route's `maxBodyBytes`), counting bytes as they arrive so a chunked or lying upload is cut off too, and within
 * `timeoutMs`. A non-empty body must be declared `application/json` (or what `acceptsType` takes: a processor's
 * form-encoded webhook) with no encoding but identity (415 otherwise). Every route with a body gets this, whether or not it reads the body. A refusal is returned,
 * not thrown: the API wrapper answers it after authentication, with the rate-limit headers of any answer.
 */
export async function readRequestBody(
  request: ApiRequest,
  timeoutMs: number,
  maxBytes = MAX_BODY_BYTES,
  acceptsType: (contentType: string | null) => boolean = isJsonContentType,
): Promise<RequestBody> {
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) return HttpError.bodyTooLarge(maxBytes);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      // Ends the pending read as done; `timedOut` tells that apart from the body's end.
      void reader.cancel();
    }, timeoutMs);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (timedOut) return HttpError.of("bodyTimeout", CLOSE);
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) {
          await reader.cancel();
          return HttpError.bodyTooLarge(maxBytes);
        }
        chunks.push(value);
      }
    } catch {
      // The client closed the connection, or broke the framing, before the whole body arrived.
      return HttpError.of("bodyIncomplete", CLOSE);
    } finally {
      clearTimeout(timer);
    }
  }
  const bytes = Buffer.concat(chunks);
  if (bytes.length === 0) return bytes;
  if (
    !isIdentityEncoding(request.headers.get("content-encoding")) ||
    !acceptsType(request.headers.get("content-type"))
  )
    return HttpError.of("unsupportedMediaType");
  return bytes;
}

/**
 * A body read by readRequestBody as a JSON object. An empty body is `{}` (the validator then names the
 * missing fields); a non-empty one must be valid UTF-8 (422, never stored as U+FFFD). Its numbers are
 * lossless-json's LosslessNumber: the numeral as sent.
 */
export function parseJsonBody(bytes: Buffer): Record<string, unknown> {
  if (bytes.length === 0) return {};
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw invalidUtf8Error(bytes);
  }
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    // Numbers stay as sent (LosslessNumber): an amount is checked on its digits, never on a rounded double.
    // A repeated name keeps its last value, as JSON.parse and PHP's json_decode do.
    parsed = parseLossless(text, null, { onDuplicateKey: ({ newValue }) => newValue });
  } catch (error) {
    // A recursive parser: valid JSON nested deep enough to fill the stack is refused as such.
    throw HttpError.of(error instanceof RangeError ? "bodyTooDeep" : "malformedJson");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw HttpError.of("bodyNotObject");
  }
  return parsed as Record<string, unknown>;
}
