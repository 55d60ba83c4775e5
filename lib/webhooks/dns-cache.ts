import "server-only";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";

/**
 * Answers kept per host name: a success for 30 s, a failure for 5 s. getaddrinfo runs on libuv's four
 * threads; without this, a burst of deliveries to one dead host (hundreds, each retried) queued a lookup
 * apiece and starved every other user of those threads (file reads, the server's own requests) for tens of
 * seconds. Concurrent lookups of one name share one call.
 */
const SUCCESS_TTL_MS = 30_000;
const FAILURE_TTL_MS = 5_000;
/** Names kept at most; the oldest goes first. */
const MAX_NAMES = 1000;

type Answer = { error: NodeJS.ErrnoException | null; addresses: LookupAddress[]; expiresAt: number };
const answers = new Map<string, Answer>();
const pending = new Map<string, Array<(answer: Answer) => void>>();

/** Every address of `hostname` (dns.lookup with `all`), from the cache when fresh. */
export function lookupAll(hostname: string, callback: (answer: Answer) => void): void {
  const cached = answers.get(hostname);
  if (cached && cached.expiresAt > Date.now()) return callback(cached);
  const waiting = pending.get(hostname);
  if (waiting) return void waiting.push(callback);
  pending.set(hostname, [callback]);
  dnsLookup(hostname, { all: true }, (error, addresses) => {
    const answer: Answer = {
      error,
      addresses: error ? [] : addresses,
      expiresAt: Date.now() + (error ? FAILURE_TTL_MS : SUCCESS_TTL_MS),
    };
    answers.delete(hostname);
    answers.set(hostname, answer);
    if (answers.size > MAX_NAMES) answers.delete(answers.keys().next().value!);
    const callbacks = pending.get(hostname) ?? [];
    pending.delete(hostname);
    for (const each of callbacks) each(answer);
  });
}
