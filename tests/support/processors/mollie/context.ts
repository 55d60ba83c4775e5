// What an API route is handed: the authenticated account, the parsed request, and the stand-in's state.
import type { Lifecycle } from "./lifecycle";
import type { Account, Store } from "./store";

export interface RouteContext {
  account: Account;
  store: Store;
  lifecycle: Lifecycle;
  /** `https://127.0.0.1:<port>`, for the links the resources carry. */
  base: string;
  query: URLSearchParams;
  body: Record<string, unknown>;
}

/** An absolute http(s) URL, as Mollie requires of redirect, cancel and webhook URLs. */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}
