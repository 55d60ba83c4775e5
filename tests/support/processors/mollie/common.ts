// Shapes and helpers every part of the Mollie stand-in shares: the answer an API route gives, Mollie's error body
// (docs.mollie.com/overview/handling-errors), its timestamps and its identifiers.
import { randomBytes } from "node:crypto";

export interface ApiResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface UrlObject {
  href: string;
  type: string;
}

export const HAL = "application/hal+json";

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized Request",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Request Entity Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  500: "Internal Server Error",
};

/** Mollie's error body: `{status, title, detail, field?, _links: {documentation}}`, served as HAL JSON. */
export function apiError(
  status: number,
  detail: string,
  field?: string,
  headers?: Record<string, string>,
): ApiResponse {
  const documentation =
    status === 401
      ? "https://docs.mollie.com/overview/authentication"
      : "https://docs.mollie.com/overview/handling-errors";
  return {
    status,
    headers,
    body: {
      status,
      title: TITLES[status] ?? "Error",
      detail,
      ...(field === undefined ? {} : { field }),
      _links: { documentation: { href: documentation, type: "text/html" } },
    },
  };
}

export function halLink(href: string): UrlObject {
  return { href, type: HAL };
}

export function htmlLink(href: string): UrlObject {
  return { href, type: "text/html" };
}

export function docLink(page: string): UrlObject {
  return htmlLink(`https://docs.mollie.com/reference/v2/${page}`);
}

/** ISO 8601 as Mollie writes it: seconds, and the offset spelled `+00:00`. */
export function timestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export function randomAlphanumeric(length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const byte of bytes) out += ALPHANUMERIC[byte % ALPHANUMERIC.length];
  return out;
}

/** Mollie's identifiers: a resource prefix and a token, e.g. `tr_7UhSN1zuXS`. */
export function newId(prefix: string): string {
  return `${prefix}_${randomAlphanumeric(10)}`;
}

/** Tells a route's answer from a found record (whose `status` is a word, not a number). */
export function isApiResponse(value: object): value is ApiResponse {
  return typeof (value as { status?: unknown }).status === "number";
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
