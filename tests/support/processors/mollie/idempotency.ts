// The Idempotency-Key header as docs.mollie.com/overview/api-idempotency describes it: on POST endpoints, a request
// repeating a key within one hour gets the first answer again, marked `Idempotent-Replayed: true`; the same key with
// another endpoint or other parameters gets 400 Bad Request. GET, PATCH and DELETE ignore the key.
import { apiError, isRecord, type ApiResponse } from "./common";

const TTL_MS = 60 * 60_000;

interface Entry {
  fingerprint: string;
  response: ApiResponse;
  at: number;
}

/** The same JSON whatever the order of an object's keys. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export class IdempotencyCache {
  private readonly entries = new Map<string, Entry>();

  /** The scope is the account: two accounts may use the same key. */
  private slot(accountKey: string, key: string): string {
    return `${accountKey}\n${key}`;
  }

  fingerprint(path: string, body: unknown): string {
    return `POST ${path} ${canonical(body)}`;
  }

  /** A replay, a 400 for a reused key, or undefined when the request is new. */
  lookup(accountKey: string, key: string, fingerprint: string): ApiResponse | undefined {
    const entry = this.entries.get(this.slot(accountKey, key));
    if (!entry || Date.now() - entry.at > TTL_MS) return undefined;
    if (entry.fingerprint !== fingerprint) {
      return apiError(
        400,
        "The Idempotency-Key was already used for a request to another endpoint or with other parameters",
      );
    }
    return { ...entry.response, headers: { ...entry.response.headers, "Idempotent-Replayed": "true" } };
  }

  /** Server errors are not kept: the request was not carried out, so a retry must carry it out. */
  store(accountKey: string, key: string, fingerprint: string, response: ApiResponse): void {
    if (response.status >= 500) return;
    this.entries.set(this.slot(accountKey, key), { fingerprint, response, at: Date.now() });
  }
}
