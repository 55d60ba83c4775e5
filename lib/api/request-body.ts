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

/**
 * Reads a JSON object body of at most 16 KiB, counting bytes as they arrive so a chunked or lying upload is
 * cut off too. An empty body is `{}` (the validator then names the missing fields); a non-empty one must be
 * declared `application/json` (415 otherwise) and be valid UTF-8 (422, never stored as U+FFFD). Its
 * numbers are lossless-json's LosslessNumber: the numeral as sent.
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
